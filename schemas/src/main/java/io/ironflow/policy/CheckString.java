package io.ironflow.policy;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A parsed oslo.policy check string, the language of Ironic's policy defaults and of operators' policy files:
 * {@code role:R}, {@code system_scope:all}, {@code project_id:%(node.owner)s} (or {@code node.lessee}, or a
 * literal), {@code rule:NAME}, {@code @} (always), {@code !} (never), joined by {@code and}, {@code or},
 * {@code not} and parentheses. The empty string allows, as in oslo.policy. Anything else is refused at parse
 * time, so a mistyped policy file stops the service instead of opening or closing an endpoint silently.
 */
public sealed interface CheckString {

    /** Whether {@code who} passes for a node owned as {@code node}; {@code rules} resolves {@code rule:NAME}. */
    boolean test(Principal who, NodeOwnership node, Function<String, CheckString> rules);

    record Always(boolean value) implements CheckString {
        public boolean test(Principal who, NodeOwnership node, Function<String, CheckString> rules) {
            return value;
        }
    }

    record Role(String role) implements CheckString {
        public boolean test(Principal who, NodeOwnership node, Function<String, CheckString> rules) {
            return who.hasRole(role);
        }
    }

    record SystemScope() implements CheckString {
        public boolean test(Principal who, NodeOwnership node, Function<String, CheckString> rules) {
            return who.systemScope();
        }
    }

    /** {@code project_id:...}: the caller's project equals the node's owner, lessee, or a literal project. */
    record Project(String field, String literal) implements CheckString {
        public boolean test(Principal who, NodeOwnership node, Function<String, CheckString> rules) {
            String wanted = switch (field == null ? "" : field) {
                case "node.owner" -> node.owner();
                case "node.lessee" -> node.lessee();
                default -> literal;
            };
            return who.project() != null && wanted != null && !wanted.isEmpty() && who.project().equals(wanted);
        }
    }

    record Rule(String name) implements CheckString {
        public boolean test(Principal who, NodeOwnership node, Function<String, CheckString> rules) {
            CheckString rule = rules.apply(name);
            return rule != null && rule.test(who, node, rules); // oslo.policy: an unknown rule refuses
        }
    }

    record Not(CheckString check) implements CheckString {
        public boolean test(Principal who, NodeOwnership node, Function<String, CheckString> rules) {
            return !check.test(who, node, rules);
        }
    }

    record All(List<CheckString> checks) implements CheckString {
        public boolean test(Principal who, NodeOwnership node, Function<String, CheckString> rules) {
            return checks.stream().allMatch(c -> c.test(who, node, rules));
        }
    }

    record Any(List<CheckString> checks) implements CheckString {
        public boolean test(Principal who, NodeOwnership node, Function<String, CheckString> rules) {
            return checks.stream().anyMatch(c -> c.test(who, node, rules));
        }
    }

    /** Parses {@code text}; a malformed check string fails with the reason and the text. */
    static CheckString parse(String text) {
        if (text == null || text.isBlank()) {
            return new Always(true);
        }
        Parser parser = new Parser(text);
        CheckString check = parser.or();
        if (parser.position < parser.tokens.size()) {
            throw new IllegalArgumentException("Unexpected '" + parser.tokens.get(parser.position) + "' in policy check \"" + text + "\"");
        }
        return check;
    }

    /** A recursive-descent parser: or := and ("or" and)*; and := not ("and" not)*; not := "not" not | atom. */
    final class Parser {
        private static final Pattern TOKEN = Pattern.compile("\\(|\\)|(?:%\\([^)]*\\)s|[^\\s()])+");
        private static final Pattern NODE_FIELD = Pattern.compile("%\\((node\\.(?:owner|lessee))\\)s");
        private final String text;
        private final List<String> tokens = new ArrayList<>();
        private int position;

        private Parser(String text) {
            this.text = text;
            Matcher m = TOKEN.matcher(text);
            while (m.find()) {
                tokens.add(m.group());
            }
        }

        private CheckString or() {
            List<CheckString> any = new ArrayList<>(List.of(and()));
            while (accept("or")) {
                any.add(and());
            }
            return any.size() == 1 ? any.get(0) : new Any(List.copyOf(any));
        }

        private CheckString and() {
            List<CheckString> all = new ArrayList<>(List.of(not()));
            while (accept("and")) {
                all.add(not());
            }
            return all.size() == 1 ? all.get(0) : new All(List.copyOf(all));
        }

        private CheckString not() {
            return accept("not") ? new Not(not()) : atom();
        }

        private CheckString atom() {
            if (position >= tokens.size()) {
                throw new IllegalArgumentException("Policy check \"" + text + "\" ends too early");
            }
            String token = tokens.get(position++);
            if (token.equals("(")) {
                CheckString inner = or();
                if (!accept(")")) {
                    throw new IllegalArgumentException("Missing ')' in policy check \"" + text + "\"");
                }
                return inner;
            }
            if (token.equals("@")) {
                return new Always(true);
            }
            if (token.equals("!")) {
                return new Always(false);
            }
            int colon = token.indexOf(':');
            if (colon <= 0) {
                throw new IllegalArgumentException("Unknown check '" + token + "' in policy check \"" + text + "\"");
            }
            String kind = token.substring(0, colon);
            String value = token.substring(colon + 1);
            return switch (kind) {
                case "role" -> new Role(value);
                case "rule" -> new Rule(value);
                case "system_scope" -> {
                    if (!value.equals("all")) {
                        throw new IllegalArgumentException("Only system_scope:all is known, in \"" + text + "\"");
                    }
                    yield new SystemScope();
                }
                case "project_id" -> {
                    Matcher field = NODE_FIELD.matcher(value);
                    if (field.matches()) {
                        yield new Project(field.group(1), null);
                    }
                    if (value.contains("%(")) {
                        throw new IllegalArgumentException("Unknown target '" + value + "' in policy check \"" + text + "\"");
                    }
                    yield new Project(null, value);
                }
                default -> throw new IllegalArgumentException("Unknown check kind '" + kind + "' in policy check \"" + text + "\"");
            };
        }

        private boolean accept(String word) {
            if (position < tokens.size() && tokens.get(position).equals(word)) {
                position++;
                return true;
            }
            return false;
        }
    }
}
