package io.ironflow.api.nodes;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ironflow.api.errors.ApiError;
import io.ironflow.api.versions.ApiVersion;
import io.ironflow.api.versions.Microversions;
import io.ironflow.events.ProvisionAction;
import java.util.Iterator;
import java.util.Set;

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
                .setConfigDrive(configDrive(node.get("configdrive")))
                .setDisableRamdisk(disableRamdisk)
                .build());
    }

    /** Ironic takes a config drive as a (gzipped, base64) string or as an object to build one from. */
    private static String configDrive(JsonNode value) {
        if (value == null || value.isNull()) {
            return null;
        }
        if (value.isTextual()) {
            return value.asText();
        }
        if (value.isObject()) {
            return value.toString();
        }
        throw JsonBody.invalid("configdrive", value, "a string or a JSON object");
    }
}
