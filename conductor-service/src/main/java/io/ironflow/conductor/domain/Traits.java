package io.ironflow.conductor.domain;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * A node's traits (Ironic API 1.37) and Ironic's rules for them: a trait is a standard name of the os-traits
 * library or {@code CUSTOM_[A-Z0-9_]+}, at most 255 characters (api/controllers/v1/utils.py validate_trait), and a
 * node has at most 50 (db/sqlalchemy/api.py MAX_TRAITS_PER_NODE). Traits are kept sorted and without duplicates.
 */
public final class Traits {

    public static final int MAX_PER_NODE = 50;
    private static final int MAX_LENGTH = 255;
    private static final Pattern CUSTOM = Pattern.compile("CUSTOM_[A-Z0-9_]+");
    /** os-traits 2.9.0's names (Debian bookworm), one a line; Ironic 21.4 validates against the same library. */
    private static final Set<String> STANDARD = load("standard-traits.txt");

    private Traits() {
    }

    /** What a ChangeTraits command does; anything else is the sender's error. */
    public enum Operation { SET, ADD, REMOVE }

    /** The node's traits after {@code operation} with {@code names}; a refusal changes nothing. */
    public static List<String> apply(String nodeUuid, Collection<String> current, String operation, List<String> names) {
        Operation op = switch (operation == null ? "" : operation) {
            case "set" -> Operation.SET;
            case "add" -> Operation.ADD;
            case "remove" -> Operation.REMOVE;
            default -> throw Rejection.badRequest("Invalid traits operation '" + operation + "': set, add or remove.");
        };
        TreeSet<String> result = new TreeSet<>(op == Operation.SET ? List.of() : current);
        switch (op) {
            case SET, ADD -> {
                names.forEach(Traits::requireValid);
                result.addAll(names);
            }
            case REMOVE -> {
                if (names.isEmpty()) {
                    result.clear();
                }
                for (String name : names) {
                    if (!result.remove(name)) {
                        throw Rejection.notFound("Node " + nodeUuid + " doesn't have a trait '" + name + "'");
                    }
                }
            }
        }
        if (result.size() > MAX_PER_NODE) {
            throw Rejection.badRequest("Could not modify traits for node " + nodeUuid + " as it would exceed the maximum"
                    + " number of traits per node (" + result.size() + " vs. " + MAX_PER_NODE + ")");
        }
        return List.copyOf(result);
    }

    /** Ironic's validate_trait: a standard trait or a custom one, 1 to 255 characters. */
    public static void requireValid(String name) {
        boolean valid = name != null && !name.isEmpty() && name.length() <= MAX_LENGTH
                && (STANDARD.contains(name) || CUSTOM.matcher(name).matches());
        if (!valid) {
            throw Rejection.badRequest("Invalid trait. A valid trait must be no longer than 255 characters. Standard"
                    + " traits are defined in the os_traits library. A custom trait must start with the prefix CUSTOM_"
                    + " and use the following characters: A-Z, 0-9 and _");
        }
    }

    public static boolean isStandard(String name) {
        return STANDARD.contains(name);
    }

    private static Set<String> load(String resource) {
        try (InputStream in = Traits.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + resource);
            }
            return new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8)).lines()
                    .map(String::trim).filter(l -> !l.isEmpty() && !l.startsWith("#"))
                    .collect(Collectors.toUnmodifiableSet());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
