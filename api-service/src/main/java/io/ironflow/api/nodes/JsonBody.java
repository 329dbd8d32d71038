package io.ironflow.api.nodes;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.eclipse.microprofile.config.ConfigProvider;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ironflow.api.errors.ApiError;
import io.ironflow.api.errors.RequestText;
import java.util.Iterator;
import java.util.Map;

/**
 * What every request body parser shares: JSON parsing and Ironic's 400 messages for a body of the wrong shape.
 * Everything a body carries goes on to the conductor and into PostgreSQL, so what neither can hold is refused
 * here: NUL characters and lone surrogates (text and jsonb reject them), numbers beyond a double's range (jsonb
 * cannot store Infinity), and nesting deeper than {@link #MAX_DEPTH}.
 */
public final class JsonBody {

    /**
     * Levels of arrays and objects a body may nest (a PATCH value sits two levels down already);
     * {@code ironflow.api.max-json-depth}, 32 by default.
     */
    static final int MAX_DEPTH = ConfigProvider.getConfig().getOptionalValue("ironflow.api.max-json-depth", Integer.class)
            .orElse(32);

    /** Text after the first JSON value is refused, as Python's json.loads does ("Extra data"), not ignored. */
    private static final ObjectMapper JSON = new ObjectMapper(JsonFactory.builder()
            .streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(MAX_DEPTH).build())
            .build()).enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

    private JsonBody() {
    }

    /** The body as JSON; an empty body reads as a missing node. Malformed JSON is a 400. */
    public static JsonNode parse(String body) {
        JsonNode tree;
        try {
            tree = JSON.readTree(body == null ? "" : body);
        } catch (StreamConstraintsException e) {
            throw ApiError.badRequest("The request body is not acceptable JSON: " + e.getOriginalMessage());
        } catch (JsonProcessingException e) {
            throw ApiError.badRequest("The request body is not valid JSON: " + RequestText.excerpt(e.getOriginalMessage()));
        }
        if (tree != null) {
            checkStorable(tree, "");
        }
        return tree;
    }

    /** Every key and value of the tree can be stored as text or jsonb by the conductor. */
    private static void checkStorable(JsonNode node, String where) {
        if (node.isTextual()) {
            String problem = RequestText.problem(node.textValue());
            if (problem != null) {
                throw ApiError.badRequest("Invalid input for field/attribute " + label(where) + ": the string " + problem + ".");
            }
        } else if (node.isFloatingPointNumber() && !Double.isFinite(node.doubleValue())) {
            throw ApiError.badRequest("Invalid input for field/attribute " + label(where) + ": the number "
                    + RequestText.excerpt(node.asText()) + " is out of range.");
        } else if (node.isObject()) {
            for (Iterator<Map.Entry<String, JsonNode>> fields = node.fields(); fields.hasNext(); ) {
                Map.Entry<String, JsonNode> field = fields.next();
                String problem = RequestText.problem(field.getKey());
                if (problem != null) {
                    throw ApiError.badRequest("Invalid key in " + label(where) + ": the key " + problem + ".");
                }
                checkStorable(field.getValue(), where + "/" + field.getKey());
            }
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                checkStorable(node.get(i), where + "/" + i);
            }
        }
    }

    private static String label(String where) {
        return where.isEmpty() ? "body" : RequestText.excerpt(where.substring(1));
    }

    /** The body as a JSON object, else a 400 saying what it should describe. */
    public static ObjectNode object(String body, String describing) {
        if (!(parse(body) instanceof ObjectNode node)) {
            throw ApiError.badRequest("The request body must be a JSON object describing " + describing + ".");
        }
        return node;
    }

    /** Ironic's message for a value of the wrong type or shape; a long value is shortened. */
    public static ApiError invalid(String field, JsonNode value, String expected) {
        String shown = value.isTextual() ? value.textValue() : value.toString();
        return ApiError.badRequest("Invalid input for field/attribute " + RequestText.excerpt(field) + ". Value: '"
                + RequestText.excerpt(shown) + "'. Expected " + expected + ".");
    }

    static ApiError unknown(String field, String of) {
        return ApiError.badRequest("Unknown attribute for " + of + ": '" + RequestText.excerpt(field) + "'.");
    }

    static ApiError missing(String field) {
        return ApiError.badRequest("Invalid input for field/attribute " + field + ". Value: None. Mandatory field missing.");
    }

    /** The field's text, or null when it is absent or JSON null. */
    static String text(ObjectNode node, String field) {
        return node.hasNonNull(field) ? node.get(field).asText() : null;
    }

    /** A required, non-blank string field. */
    public static String requiredText(ObjectNode node, String field) {
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
    public static String optionalText(ObjectNode node, String field) {
        JsonNode value = node.get(field);
        if (value != null && !value.isNull() && !value.isTextual()) {
            throw invalid(field, value, "a string");
        }
        return text(node, field);
    }

    /** A dictionary field as JSON object text: absent or null is {@code {}}, anything but an object 400. */
    public static String dict(ObjectNode node, String field) {
        JsonNode value = node.get(field);
        if (value == null || value.isNull()) {
            return "{}";
        }
        if (!value.isObject()) {
            throw invalid(field, value, "a JSON object");
        }
        return value.toString();
    }

    /** An optional string of at most {@code max} characters. */
    public static String optionalText(ObjectNode node, String field, int max) {
        String text = optionalText(node, field);
        if (text != null && text.length() > max) {
            throw invalid(field, node.get(field), "a string of at most " + max + " characters");
        }
        return text;
    }

    /** A UUID field, in canonical lower-case form. */
    public static String uuid(ObjectNode node, String field) {
        String text = requiredText(node, field);
        if (NodeReader.parseUuid(text) == null) {
            throw ApiError.badRequest("Expected a UUID for " + field + " but received " + RequestText.excerpt(text) + ".");
        }
        return text.toLowerCase();
    }
}
