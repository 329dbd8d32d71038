package io.ironflow.policy;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/**
 * Decides whether a principal may do something to a node: {@link PolicyDefaults}' rules, each replaced by the
 * operator's policy file where it names the rule (oslo.policy's YAML format, {@code "rule name": "check string"}).
 * Every check string is parsed when the policy is built, so a bad file stops start-up with its reason.
 */
public final class Policy {

    /** The answer to a node operation, with Ironic's status for a refusal. */
    public enum Decision {
        ALLOWED(200), FORBIDDEN(403), NOT_FOUND(404);

        public final int status;

        Decision(int status) {
            this.status = status;
        }
    }

    /** The rule whose refusal hides a node altogether: 404, as if it did not exist, instead of 403. */
    public static final String NODE_GET = "baremetal:node:get";

    private final Map<String, CheckString> rules;

    private Policy(Map<String, String> checks) {
        Map<String, CheckString> parsed = new LinkedHashMap<>();
        checks.forEach((name, check) -> parsed.put(name, CheckString.parse(check)));
        this.rules = Map.copyOf(parsed);
    }

    /** Ironic's defaults alone. */
    public static Policy defaults() {
        return new Policy(PolicyDefaults.checks());
    }

    /** The defaults with {@code overrides} (rule name to check string) in their place. */
    public static Policy withOverrides(Map<String, String> overrides) {
        Map<String, String> checks = PolicyDefaults.checks();
        checks.putAll(overrides);
        return new Policy(checks);
    }

    /** The defaults overridden by the oslo.policy YAML (or JSON) file at {@code file}. */
    public static Policy load(Path file) {
        try (Reader in = Files.newBufferedReader(file)) {
            Object doc = new Yaml(new SafeConstructor(new LoaderOptions())).load(in);
            Map<String, String> overrides = new LinkedHashMap<>();
            if (doc instanceof Map<?, ?> map) {
                map.forEach((k, v) -> overrides.put(String.valueOf(k), v == null ? "" : String.valueOf(v)));
            } else if (doc != null) {
                throw new IllegalArgumentException("The policy file " + file + " must map rule names to check strings");
            }
            return withOverrides(overrides);
        } catch (IOException e) {
            throw new IllegalArgumentException("Cannot read the policy file " + file + ": " + e.getMessage(), e);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("The policy file " + file + " is invalid: " + e.getMessage(), e);
        }
    }

    /** Whether {@code who} passes the rule {@code rule} for a node owned as {@code node}; unknown rules refuse. */
    public boolean allows(String rule, Principal who, NodeOwnership node) {
        CheckString check = rules.get(rule);
        return check != null && check.test(who, node, rules::get);
    }

    /**
     * Whether {@code who} passes every rule on every node, whoever owns or leases it: then nothing of a node's row
     * but its existence decides the answer. A check string compares the caller's project with the node's owner and
     * lessee only for equality, so each being nobody, the caller's project or another project covers every node;
     * a rule with {@code not} can pass on one and fail on another, and is found so.
     */
    public boolean allowsWhoeverOwns(Collection<String> required, Principal who) {
        List<String> owners = Arrays.asList(null, who.project(), "\u0000 a project that is not the caller's");
        for (String owner : owners) {
            for (String lessee : owners) {
                NodeOwnership node = new NodeOwnership(owner, lessee);
                if (!required.stream().allMatch(rule -> allows(rule, who, node))) {
                    return false;
                }
            }
        }
        return true;
    }

    /**
     * Ironic's answer for operations on an existing node: allowed when every rule passes; otherwise 403 if the
     * caller may see the node, else 404 so that a project learns nothing of nodes that are not its own.
     */
    public Decision decide(Collection<String> required, Principal who, NodeOwnership node) {
        if (required.stream().allMatch(rule -> allows(rule, who, node))) {
            return Decision.ALLOWED;
        }
        return allows(NODE_GET, who, node) ? Decision.FORBIDDEN : Decision.NOT_FOUND;
    }
}
