package io.ironflow.conductor.domain.hardware;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ironflow.conductor.domain.Rejection;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Manual cleaning's {@code clean_steps}, checked in Ironic's two places: {@link #parse} is the API's JSON schema
 * (400 before anything changes); {@link #resolve} is the conductor's check against the driver, whose failure
 * sends the node to {@code clean failed} with the message as {@code last_error}.
 */
public final class ManualClean {

    /** A step as the user asked for it; priority and abortable are not the user's to give. */
    public record RequestedStep(String interfaceName, String step, Map<String, Object> args) {

        public RequestedStep {
            args = args == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(args));
        }

        public String key() {
            return interfaceName + "." + step;
        }
    }

    /** Either the steps to run, in the user's order, or one error naming every problem. */
    public record Plan(List<PlannedStep> steps, String error) {

        public Plan {
            steps = List.copyOf(steps);
        }

        public boolean ok() {
            return error == null;
        }
    }

    /** Ironic's CLEANING_INTERFACE_PRIORITY keys, in its priority order. */
    public static final List<String> INTERFACES = List.of("vendor", "power", "management", "firmware", "deploy", "bios", "raid");

    /**
     * Ironic's reserved power steps: valid for every driver and not validated against its catalogue
     * (conductor/steps.py). {@code hold} and {@code wait} are not supported here.
     */
    public static final Set<String> POWER_FLOW_STEPS = Set.of("power.power_on", "power.power_off", "power.reboot");

    private static final Set<String> ITEM_KEYS = Set.of("interface", "step", "args");
    private static final ObjectMapper JSON = new ObjectMapper();

    private ManualClean() {
    }

    /**
     * The API's schema check. Steps are numbered from 1 in messages. Throws {@link Rejection} 400 on the first
     * violation, as jsonschema does.
     */
    public static List<RequestedStep> parse(String cleanStepsJson) {
        JsonNode root;
        try {
            root = cleanStepsJson == null || cleanStepsJson.isBlank() ? null : JSON.readTree(cleanStepsJson);
        } catch (JsonProcessingException e) {
            throw invalid("not valid JSON (" + e.getOriginalMessage() + ")");
        }
        // Ironic tests `if not clean_steps`, so null and [] get the same answer as a missing field.
        if (root == null || root.isNull() || (root.isArray() && root.isEmpty())) {
            throw Rejection.badRequest("\"clean_steps\" is required when setting target provision state to clean");
        }
        if (!root.isArray()) {
            throw invalid("must be a JSON array of steps");
        }
        List<RequestedStep> steps = new ArrayList<>();
        for (int i = 0; i < root.size(); i++) {
            steps.add(item(root.get(i), "step " + (i + 1) + ": "));
        }
        return steps;
    }

    @SuppressWarnings("unchecked")
    private static RequestedStep item(JsonNode item, String where) {
        if (!item.isObject()) {
            throw invalid(where + "must be an object with \"interface\", \"step\" and optional \"args\"");
        }
        for (Iterator<String> names = item.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            if (!ITEM_KEYS.contains(name)) {
                throw invalid(where + "unexpected key \"" + name + "\" (allowed: interface, step, args)");
            }
        }
        JsonNode iface = item.get("interface");
        if (iface == null) {
            throw invalid(where + "\"interface\" is required");
        }
        if (!iface.isTextual() || !INTERFACES.contains(iface.textValue())) {
            throw invalid(where + "\"interface\" must be one of " + String.join(", ", INTERFACES) + ", not " + iface);
        }
        JsonNode step = item.get("step");
        if (step == null) {
            throw invalid(where + "\"step\" is required");
        }
        if (!step.isTextual() || step.textValue().isEmpty()) {
            throw invalid(where + "\"step\" must be a non-empty string, not " + step);
        }
        JsonNode args = item.get("args");
        if (args != null && !args.isObject()) {
            throw invalid(where + "\"args\" must be an object, not " + args);
        }
        Map<String, Object> argMap = args == null ? Map.of() : JSON.convertValue(args, LinkedHashMap.class);
        return new RequestedStep(iface.textValue(), step.textValue(), argMap);
    }

    private static Rejection invalid(String problem) {
        return Rejection.badRequest("Invalid clean_steps: " + problem);
    }

    /**
     * The conductor's check against {@code driver}'s catalogue. Every problem is collected, so the operator sees
     * them all at once; any problem means nothing runs.
     */
    public static Plan resolve(List<RequestedStep> requested, HardwareDriver driver) {
        List<PlannedStep> steps = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        for (RequestedStep r : requested) {
            if (POWER_FLOW_STEPS.contains(r.key())) {
                steps.add(PlannedStep.operation(r.key(), r.args()));
                continue;
            }
            Optional<StepDefinition> found = driver.cleanSteps().stream().filter(d -> d.key().equals(r.key())).findFirst();
            if (found.isEmpty()) {
                problems.add("step " + r.key() + " is not supported by driver " + driver.name());
                continue;
            }
            StepDefinition def = found.get();
            List<String> missing = def.args().stream()
                    .filter(a -> a.required() && !r.args().containsKey(a.name())).map(StepArgument::name).toList();
            if (!missing.isEmpty()) {
                problems.add("step " + r.key() + " is missing required argument" + plural(missing));
            }
            List<String> unexpected = r.args().keySet().stream().filter(n -> def.arg(n).isEmpty()).toList();
            if (!unexpected.isEmpty()) {
                problems.add("step " + r.key() + " got unexpected argument" + plural(unexpected));
            }
            steps.add(def.plan(r.args()));
        }
        if (!problems.isEmpty()) {
            return new Plan(List.of(), "Manual cleaning failed: " + String.join("; ", problems));
        }
        return new Plan(steps, null);
    }

    /** {@code  "a"} or {@code s "a", "b"}. */
    private static String plural(List<String> names) {
        return (names.size() == 1 ? " " : "s ") + String.join(", ", names.stream().map(n -> "\"" + n + "\"").toList());
    }
}
