package io.ironflow.api.nodes;

import static io.ironflow.api.nodes.JsonBody.invalid;
import static io.ironflow.api.nodes.JsonBody.text;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ironflow.api.errors.ApiError;
import io.ironflow.api.versions.ApiVersion;
import io.ironflow.api.versions.Microversions;
import io.ironflow.events.CreateNode;
import java.util.Iterator;
import java.util.Set;
import java.util.UUID;

/**
 * The body of {@code POST /v1/nodes}, checked for shape only: that it is a JSON object with known fields of the
 * right types. Whether the driver exists or the name is free is the conductor's decision.
 */
record CreateNodeRequest(String uuid, CreateNode command) {

    private static final Set<String> STRING_FIELDS =
            Set.of("name", "resource_class", "owner", "lessee", "description", "conductor_group", "uuid");
    private static final Set<String> DICT_FIELDS = Set.of("driver_info", "properties", "extra", "instance_info");

    static CreateNodeRequest parse(String body, ApiVersion version) {
        ObjectNode node = JsonBody.object(body, "the node");
        for (Iterator<String> names = node.fieldNames(); names.hasNext(); ) {
            String field = names.next();
            Microversions.requireField(field, version);
            JsonNode value = node.get(field);
            if (field.equals("driver")) {
                if (!value.isTextual()) {
                    throw invalid(field, value, "a string");
                }
            } else if (STRING_FIELDS.contains(field)) {
                if (!value.isTextual() && !value.isNull()) {
                    throw invalid(field, value, "a string");
                }
            } else if (DICT_FIELDS.contains(field)) {
                if (!value.isObject()) {
                    throw invalid(field, value, "a JSON object");
                }
            } else if (field.equals("automated_clean")) {
                if (!value.isBoolean() && !value.isNull()) {
                    throw invalid(field, value, "a boolean");
                }
            } else {
                throw JsonBody.unknown(field, "node");
            }
        }
        if (!node.hasNonNull("driver") || node.get("driver").asText().isBlank()) {
            throw JsonBody.missing("driver");
        }
        String uuid = text(node, "uuid");
        if (uuid == null) {
            uuid = UUID.randomUUID().toString();
        } else if (NodeReader.parseUuid(uuid) == null) {
            throw ApiError.badRequest("Expected a UUID for uuid but received " + uuid + ".");
        }
        CreateNode command = CreateNode.newBuilder()
                .setName(text(node, "name"))
                .setDriver(node.get("driver").asText())
                .setDriverInfo(dict(node, "driver_info"))
                .setProperties(dict(node, "properties"))
                .setExtra(dict(node, "extra"))
                .setInstanceInfo(dict(node, "instance_info"))
                .setResourceClass(text(node, "resource_class"))
                .setOwner(text(node, "owner"))
                .setLessee(text(node, "lessee"))
                .setDescription(text(node, "description"))
                .setAutomatedClean(node.hasNonNull("automated_clean") ? node.get("automated_clean").asBoolean() : null)
                .setConductorGroup(node.hasNonNull("conductor_group") ? node.get("conductor_group").asText() : "")
                .build();
        return new CreateNodeRequest(uuid.toLowerCase(), command);
    }

    private static String dict(ObjectNode node, String field) {
        return node.has(field) ? node.get(field).toString() : "{}";
    }
}
