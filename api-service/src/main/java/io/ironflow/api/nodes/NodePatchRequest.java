package io.ironflow.api.nodes;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ironflow.api.QueryBooleans;
import io.ironflow.api.errors.ApiError;
import io.ironflow.api.errors.RequestText;
import io.ironflow.api.versions.ApiVersion;
import io.ironflow.api.versions.Microversions;
import io.ironflow.events.UpdateNode;
import java.util.Iterator;
import java.util.Set;

/**
 * The body of {@code PATCH /v1/nodes/{ident}}: an RFC 6902 JSON Patch, checked for shape as Ironic's
 * JSONPATCH_SCHEMA does. Which paths may be written, and when, is the conductor's decision.
 */
record NodePatchRequest(UpdateNode command) {

    // Ironic accepts only these three operations (no move, copy or test).
    private static final Set<String> OPS = Set.of("add", "remove", "replace");
    private static final Set<String> MEMBERS = Set.of("op", "path", "value");

    /**
     * {@code resetInterfaces} is the request's {@code reset_interfaces} (null when absent): Ironic's (1.45) reset of
     * the node's interfaces to the new driver's defaults, allowed only with a change of /driver. A node's
     * interfaces here are always its driver's, so they follow a new driver whether or not it is given.
     */
    static NodePatchRequest parse(String ident, String body, ApiVersion version, String resetInterfaces) {
        if (resetInterfaces != null) {
            QueryBooleans.parse(resetInterfaces, "Invalid value for reset_interfaces: "); // checked first, as Ironic's args
            Microversions.requireFeature("the parameter \"reset_interfaces\"", version);
        }
        if (!(JsonBody.parse(body) instanceof ArrayNode patch) || patch.isEmpty()) {
            throw ApiError.badRequest("The request body must be a non-empty JSON Patch (RFC 6902) array of operations.");
        }
        boolean driverChanged = false;
        for (JsonNode operation : patch) {
            check(operation);
            String[] path = operation.get("path").asText().substring(1).split("/", 2);
            // The node field the path writes must exist at the requested version (Ironic: 406 otherwise).
            Microversions.requireField(path[0], version);
            if (path.length == 1 && operation.has("value") && !operation.get("op").asText().equals("remove")) {
                checkValue(ident, path[0], operation.get("value"));
            }
            driverChanged |= path.length == 1 && path[0].equals("driver");
            AppliedProfile.refuseIn(path, operation.get("value"));
        }
        if (resetInterfaces != null && !driverChanged) { // Ironic's message
            throw ApiError.badRequest("The reset_interfaces parameter can only be used when changing the node's driver.");
        }
        return new NodePatchRequest(UpdateNode.newBuilder().setPatch(patch.toString()).build());
    }

    /**
     * A whole field's new value must have the field's type (Ironic's node patch schema): the conductor stores
     * what it is given. Which fields may be written at all is the conductor's decision.
     */
    private static void checkValue(String ident, String field, JsonNode value) {
        if (NodeFields.STRINGS.containsKey(field)) {
            NodeFields.requireString(field, value);
            if (field.equals("name") && value.isTextual() && !NodeFields.validName(value.textValue())) { // Ironic's message
                throw ApiError.badRequest("Node " + RequestText.excerpt(ident) + ": Cannot change name to invalid name '"
                        + RequestText.excerpt(value.textValue()) + "'");
            }
        } else if (NodeFields.DICTS.contains(field)) {
            NodeFields.requireDict(field, value);
        } else if (NodeFields.BOOLEANS.contains(field)) {
            NodeFields.requireBooleanOrText(field, value);
        }
    }

    private static void check(JsonNode operation) {
        if (!(operation instanceof ObjectNode op)) {
            throw ApiError.badRequest("Invalid patch operation " + RequestText.excerpt(operation.toString()) + ": each operation must be a JSON object.");
        }
        JsonNode name = op.get("op");
        if (name == null || !name.isTextual()) {
            throw ApiError.badRequest("Invalid patch operation " + RequestText.excerpt(op.toString()) + ": 'op' must be one of add, remove, replace.");
        }
        if (!OPS.contains(name.asText())) {
            throw ApiError.badRequest("Invalid patch operation " + RequestText.excerpt(op.toString()) + ": the operation '" + RequestText.excerpt(name.asText())
                    + "' is not supported; use add, remove or replace.");
        }
        for (Iterator<String> names = op.fieldNames(); names.hasNext(); ) {
            String member = names.next();
            if (!MEMBERS.contains(member)) { // Ironic's schema has additionalProperties: false
                throw ApiError.badRequest("Invalid patch operation " + RequestText.excerpt(op.toString()) + ": unknown member '" + RequestText.excerpt(member) + "'.");
            }
        }
        JsonNode path = op.get("path");
        if (path == null || !path.isTextual() || !path.asText().startsWith("/")) {
            throw ApiError.badRequest("Invalid patch operation " + RequestText.excerpt(op.toString()) + ": 'path' must be a string starting with '/'.");
        }
        if (!name.asText().equals("remove") && !op.has("value")) {
            throw ApiError.badRequest("Invalid patch operation " + RequestText.excerpt(op.toString()) + ": '" + name.asText() + "' needs a 'value'.");
        }
    }
}
