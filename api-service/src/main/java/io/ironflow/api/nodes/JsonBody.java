package io.ironflow.api.nodes;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ironflow.api.errors.ApiError;

/** What every request body parser shares: JSON parsing and Ironic's 400 messages for a body of the wrong shape. */
final class JsonBody {

    private static final ObjectMapper JSON = new ObjectMapper();

    private JsonBody() {
    }

    /** The body as JSON; an empty body reads as a missing node. Malformed JSON is a 400. */
    static JsonNode parse(String body) {
        try {
            return JSON.readTree(body == null ? "" : body);
        } catch (JsonProcessingException e) {
            throw ApiError.badRequest("The request body is not valid JSON: " + e.getOriginalMessage());
        }
    }

    /** The body as a JSON object, else a 400 saying what it should describe. */
    static ObjectNode object(String body, String describing) {
        if (!(parse(body) instanceof ObjectNode node)) {
            throw ApiError.badRequest("The request body must be a JSON object describing " + describing + ".");
        }
        return node;
    }

    static ApiError invalid(String field, JsonNode value, String expected) {
        return ApiError.badRequest("Invalid input for field/attribute " + field + ". Value: " + value
                + ". Expected " + expected + ".");
    }

    static ApiError unknown(String field, String of) {
        return ApiError.badRequest("Unknown attribute for " + of + ": '" + field + "'.");
    }

    static ApiError missing(String field) {
        return ApiError.badRequest("Invalid input for field/attribute " + field + ". Value: None. Mandatory field missing.");
    }

    /** The field's text, or null when it is absent or JSON null. */
    static String text(ObjectNode node, String field) {
        return node.hasNonNull(field) ? node.get(field).asText() : null;
    }

    /** A required, non-blank string field. */
    static String requiredText(ObjectNode node, String field) {
        JsonNode value = node.get(field);
        if (value == null || value.isNull()) {
            throw missing(field);
        }
        if (!value.isTextual() || value.asText().isBlank()) {
            throw invalid(field, value, "a non-empty string");
        }
        return value.asText();
    }

    /** An optional string field: absent or null reads as null, anything but a string is a 400. */
    static String optionalText(ObjectNode node, String field) {
        JsonNode value = node.get(field);
        if (value != null && !value.isNull() && !value.isTextual()) {
            throw invalid(field, value, "a string");
        }
        return text(node, field);
    }
}
