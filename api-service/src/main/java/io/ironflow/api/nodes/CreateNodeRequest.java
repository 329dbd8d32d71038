package io.ironflow.api.nodes;

import static io.ironflow.api.nodes.JsonBody.invalid;
import static io.ironflow.api.nodes.JsonBody.text;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ironflow.api.errors.ApiError;
import io.ironflow.api.errors.RequestText;
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
            Set.of("name", "resource_class", "owner", "lessee", "description", "conductor_group", "uuid", "shard");
    private static final Set<String> DICT_FIELDS = Set.of("driver_info", "properties", "extra", "instance_info",
            "network_data");

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
                NodeFields.requireString(field, value);
            } else if (STRING_FIELDS.contains(field)) {
                NodeFields.requireString(field, value);
            } else if (DICT_FIELDS.contains(field)) {
                NodeFields.requireDict(field, value);
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
        String name = text(node, "name");
        if (name != null && !NodeFields.validName(name)) { // Ironic's message
            throw ApiError.badRequest("Cannot create node with invalid name '" + RequestText.excerpt(name) + "'");
        }
        AppliedProfile.refuseIn(new String[] {"driver_info"}, node.get("driver_info"));
        String uuid = text(node, "uuid"); // a UUID, if given: NodeFields checked it
        if (uuid == null) {
            uuid = UUID.randomUUID().toString();
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
                .setNetworkData(dict(node, "network_data"))
                .setShard(text(node, "shard"))
                .build();
        return new CreateNodeRequest(uuid.toLowerCase(), command);
    }

    private static String dict(ObjectNode node, String field) {
        return node.has(field) ? node.get(field).toString() : "{}";
    }
}
