package io.ironflow.api.nodes;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeType;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ironflow.api.errors.ApiError;
import io.ironflow.api.errors.RequestText;
import io.ironflow.api.versions.ApiVersion;
import io.ironflow.api.versions.Microversions;
import io.ironflow.events.ProvisionAction;
import java.util.Iterator;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The body of {@code PUT /v1/nodes/{ident}/states/provision}, checked for shape only. Whether the verb exists,
 * fits the node's state, or goes with the clean steps or rescue password given is the conductor's decision, so
 * every sender of intents meets the same rules.
 */
record ProvisionStateRequest(ProvisionAction command) {

    private static final Set<String> FIELDS =
            Set.of("target", "clean_steps", "rescue_password", "configdrive", "disable_ramdisk");
    // Ironic takes these; Ironflow does not implement deploy/service steps or runbooks yet.
    private static final Set<String> NOT_SUPPORTED = Set.of("deploy_steps", "service_steps", "runbook");

    static ProvisionStateRequest parse(String body, ApiVersion version) {
        ObjectNode node = JsonBody.object(body, "the provision state change");
        for (Iterator<String> names = node.fieldNames(); names.hasNext(); ) {
            String field = names.next();
            if (NOT_SUPPORTED.contains(field)) {
                throw ApiError.badRequest("\"" + field + "\" is not supported by Ironflow.");
            }
            if (!FIELDS.contains(field)) {
                throw JsonBody.unknown(field, "provision state change");
            }
        }
        String target = JsonBody.requiredText(node, "target");
        Microversions.requireVerb(target, version);
        Boolean disableRamdisk = null;
        if (node.has("disable_ramdisk")) { // Ironic 1.70
            Microversions.requireProvisionField("disable_ramdisk", version);
            JsonNode value = node.get("disable_ramdisk");
            if (!value.isBoolean() && !value.isNull()) {
                throw JsonBody.invalid("disable_ramdisk", value, "a boolean");
            }
            disableRamdisk = value.isNull() ? null : value.booleanValue();
            if (Boolean.TRUE.equals(disableRamdisk) && !target.equals("clean")) { // Ironic's check, in its API
                throw ApiError.badRequest("\"disable_ramdisk\" is only valid when setting target provision state to clean");
            }
        }
        JsonNode cleanSteps = node.get("clean_steps");
        if (cleanSteps != null && !cleanSteps.isNull() && !cleanSteps.isArray()) {
            throw JsonBody.invalid("clean_steps", cleanSteps, "a JSON array of clean steps");
        }
        return new ProvisionStateRequest(ProvisionAction.newBuilder()
                .setTarget(target)
                // The steps go to the conductor as given: it validates them against the driver's catalogue. An empty
                // list is none, as Ironic tests them (`if clean_steps`): allowed with any verb, not enough for clean.
                .setCleanSteps(cleanSteps == null || cleanSteps.isNull() || cleanSteps.isEmpty() ? null : cleanSteps.toString())
                .setRescuePassword(JsonBody.optionalText(node, "rescue_password"))
                .setConfigDrive(configDrive(node.get("configdrive"), target, version))
                .setDisableRamdisk(disableRamdisk)
                .build());
    }

    /** The keys of a config drive given as a JSON object, each with the JSON types Ironic's schema takes. */
    private static final Map<String, Set<JsonNodeType>> CONFIG_DRIVE_KEYS = Map.of(
            "meta_data", Set.of(JsonNodeType.OBJECT),
            "network_data", Set.of(JsonNodeType.OBJECT),
            "user_data", Set.of(JsonNodeType.OBJECT, JsonNodeType.ARRAY, JsonNodeType.STRING, JsonNodeType.NULL),
            "vendor_data", Set.of(JsonNodeType.OBJECT));
    private static final Pattern BASE64_TEXT = Pattern.compile("[A-Za-z0-9+/=\\n\\r\\t ]*");

    /**
     * A config drive as Ironic's check_allow_configdrive takes it: none (null, "" or {}) with any verb; otherwise
     * only with active, or rebuild from 1.35; a gzipped base64 string or a URL, or from 1.56 a JSON object of
     * meta_data, network_data, user_data and (1.59) vendor_data to build one from. Anything else is 400.
     */
    private static String configDrive(JsonNode value, String target, ApiVersion version) {
        if (!(value == null || value.isNull() || value.isTextual() || value.isObject())) {
            // Ironic's args.types(None, dict, str) refuses any other type before the config drive is looked at
            throw ApiError.badRequest("Invalid configdrive format: " + RequestText.excerpt(value.toString())
                    + " is not of type 'object', 'string', 'null'");
        }
        if (value == null || value.isNull() || value.isTextual() && value.textValue().isEmpty()
                || value.isObject() && value.isEmpty()) {
            return null; // Python-false: Ironic takes it for no config drive
        }
        boolean rebuildToo = Microversions.allows("configdrive on rebuild", version);
        if (!target.equals("active") && !(rebuildToo && target.equals("rebuild"))) {
            throw ApiError.badRequest("Adding a config drive is only supported when setting provision state to "
                    + (rebuildToo ? "active, rebuild" : "active"));
        }
        if (value.isTextual()) {
            String text = value.textValue();
            if (!text.contains("://") && !BASE64_TEXT.matcher(text).matches()) {
                throw ApiError.badRequest("Invalid configdrive format: it is neither a JSON, nor a URL, nor a base64 string");
            }
            return text;
        }
        for (Iterator<Map.Entry<String, JsonNode>> entries = value.fields(); entries.hasNext(); ) {
            Map.Entry<String, JsonNode> entry = entries.next();
            Set<JsonNodeType> types = CONFIG_DRIVE_KEYS.get(entry.getKey());
            if (types == null) {
                throw ApiError.badRequest("Invalid configdrive format: additional properties are not allowed ('"
                        + RequestText.excerpt(entry.getKey()) + "' was unexpected)");
            }
            if (!types.contains(entry.getValue().getNodeType())) {
                throw ApiError.badRequest("Invalid configdrive format: " + entry.getKey() + " is not of type "
                        + types.stream().map(t -> "'" + t.name().toLowerCase(Locale.ROOT) + "'").sorted()
                                .collect(Collectors.joining(", ")));
            }
        }
        if (!Microversions.allows("configdrive as a JSON object", version)) {
            throw ApiError.badRequest("Providing a JSON object for configdrive is only supported starting with API version 1.56");
        }
        if (value.has("vendor_data") && !Microversions.allows("configdrive vendor_data", version)) {
            throw ApiError.badRequest("Providing vendor_data in configdrive is only supported starting with API version 1.59");
        }
        return value.toString();
    }
}
