package io.ironflow.api.nodes;

import com.fasterxml.jackson.databind.JsonNode;
import io.ironflow.api.QueryBooleans;
import io.ironflow.api.errors.ApiError;
import io.ironflow.api.errors.RequestText;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The types of the node fields a client writes (POST /v1/nodes, PATCH /v1/nodes/{ident}), as Ironic's node
 * schema gives them, with the lengths of Ironic's columns. The conductor stores what it is sent; a value it could
 * not store (a number as a name, a string as driver_info, a name too long for the name index) is refused here
 * with a 400 before any intent is sent.
 */
final class NodeFields {

    /** String fields and the most characters each may have (Ironic's columns; description: its API's limit). */
    static final Map<String, Integer> STRINGS = Map.ofEntries(
            Map.entry("name", 255),
            Map.entry("description", 4096),
            Map.entry("owner", 255),
            Map.entry("lessee", 255),
            Map.entry("resource_class", 80),
            Map.entry("conductor_group", 255),
            Map.entry("retired_reason", 4096),
            Map.entry("instance_uuid", 36),
            Map.entry("uuid", 36),
            Map.entry("driver", 255),
            Map.entry("shard", 255));
    /** Dictionary fields: a JSON object each. */
    static final Set<String> DICTS = Set.of("driver_info", "properties", "extra", "instance_info", "network_data");
    /** Boolean fields: a JSON boolean, or (Ironic's strict bool_from_string) its text form where Ironic takes it. */
    static final Set<String> BOOLEANS = Set.of("retired", "automated_clean");

    // RFC 3986 unreserved characters (Ironic's is_valid_logical_name); a name must not be a UUID.
    private static final Pattern LOGICAL_NAME = Pattern.compile("[A-Za-z0-9._~-]{1,255}");

    private NodeFields() {
    }

    /** A string field: a string (or null) of at most its length. */
    static void requireString(String field, JsonNode value) {
        if (value.isNull()) {
            return;
        }
        if (!value.isTextual()) {
            throw JsonBody.invalid(field, value, "a string");
        }
        int max = STRINGS.get(field);
        if (value.textValue().length() > max) {
            throw JsonBody.invalid(field, value, "a string of at most " + max + " characters");
        }
        if ((field.equals("instance_uuid") || field.equals("uuid")) && NodeReader.parseUuid(value.textValue()) == null) {
            throw ApiError.badRequest("Expected a UUID for " + field + " but received "
                    + RequestText.excerpt(value.textValue()) + ".");
        }
    }

    static void requireDict(String field, JsonNode value) {
        if (!value.isObject()) {
            throw JsonBody.invalid(field, value, "a JSON object");
        }
    }

    /** A boolean field of a PATCH: true/false, null, or Ironic's text booleans ("True", "no", ...). */
    static void requireBooleanOrText(String field, JsonNode value) {
        if (value.isNull() || value.isBoolean()) {
            return;
        }
        if (!value.isTextual()) {
            throw JsonBody.invalid(field, value, "a boolean");
        }
        QueryBooleans.parse(value.textValue(), "Invalid input for field/attribute " + field + ". Value: '"
                + RequestText.excerpt(value.textValue()) + "'. ");
    }

    /** Whether {@code name} is a node name Ironic takes: letters, digits and '-._~', at most 255, not a UUID. */
    static boolean validName(String name) {
        return LOGICAL_NAME.matcher(name).matches() && NodeReader.parseUuid(name) == null;
    }
}
