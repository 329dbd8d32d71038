package io.ironflow.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Checks a JSON value against a schema of docs/openapi.yaml: the subset of JSON Schema the document uses
 * ({@code $ref}, {@code type} (one or a list, null included), {@code properties}, {@code required},
 * {@code items}, {@code additionalProperties}, {@code enum}). Answers every mismatch with its JSON pointer.
 */
final class OpenApiSchemas {

    private final JsonNode document;

    private OpenApiSchemas(JsonNode document) {
        this.document = document;
    }

    static OpenApiSchemas read(Path file) throws IOException {
        return new OpenApiSchemas(new ObjectMapper(new YAMLFactory()).readTree(file.toFile()));
    }

    static OpenApiSchemas parse(String yaml) throws IOException {
        return new OpenApiSchemas(new ObjectMapper(new YAMLFactory()).readTree(yaml));
    }

    JsonNode document() {
        return document;
    }

    /** The schema of {@code method path}'s {@code status} response body, or null when it has none. */
    JsonNode responseSchema(String method, String path, int status) {
        JsonNode response = document.at("/paths/" + escape(path) + "/" + method.toLowerCase() + "/responses/" + status);
        if (response.isMissingNode()) {
            throw new AssertionError(method + " " + path + " does not document status " + status);
        }
        JsonNode schema = response.at("/content/application~1json/schema");
        return schema.isMissingNode() ? null : schema;
    }

    List<String> mismatches(JsonNode value, JsonNode schema) {
        List<String> problems = new ArrayList<>();
        check(value, schema, "", problems);
        return problems;
    }

    private void check(JsonNode value, JsonNode schema, String at, List<String> problems) {
        if (schema.has("$ref")) {
            String name = schema.get("$ref").asText().replace("#/components/schemas/", "");
            check(value, document.at("/components/schemas/" + name), at, problems);
            return;
        }
        if (schema.has("type")) {
            List<String> types = new ArrayList<>();
            if (schema.get("type").isArray()) {
                schema.get("type").forEach(t -> types.add(t.asText()));
            } else {
                types.add(schema.get("type").asText());
            }
            if (types.stream().noneMatch(t -> is(value, t))) {
                problems.add(at + ": " + value + " is not " + types);
                return;
            }
        }
        if (schema.has("enum") && !value.isNull()) {
            boolean listed = false;
            for (JsonNode allowed : schema.get("enum")) {
                listed |= allowed.equals(value);
            }
            if (!listed) {
                problems.add(at + ": " + value + " is not one of " + schema.get("enum"));
            }
        }
        if (value.isObject()) {
            for (JsonNode required : schema.path("required")) {
                if (!value.has(required.asText())) {
                    problems.add(at + ": missing required " + required.asText());
                }
            }
            JsonNode properties = schema.path("properties");
            for (Iterator<Map.Entry<String, JsonNode>> fields = value.fields(); fields.hasNext(); ) {
                Map.Entry<String, JsonNode> field = fields.next();
                JsonNode property = properties.get(field.getKey());
                if (property != null) {
                    check(field.getValue(), property, at + "/" + field.getKey(), problems);
                } else if (schema.has("additionalProperties") && schema.get("additionalProperties").isObject()) {
                    check(field.getValue(), schema.get("additionalProperties"), at + "/" + field.getKey(), problems);
                } else if (schema.path("additionalProperties").isBoolean() && !schema.get("additionalProperties").asBoolean()
                        || (properties.size() > 0 && !schema.has("additionalProperties"))) {
                    problems.add(at + ": undocumented property " + field.getKey());
                }
            }
        }
        if (value.isArray() && schema.has("items")) {
            for (int i = 0; i < value.size(); i++) {
                check(value.get(i), schema.get("items"), at + "/" + i, problems);
            }
        }
    }

    private static boolean is(JsonNode value, String type) {
        return switch (type) {
            case "object" -> value.isObject();
            case "array" -> value.isArray();
            case "string" -> value.isTextual();
            case "integer" -> value.isIntegralNumber();
            case "number" -> value.isNumber();
            case "boolean" -> value.isBoolean();
            case "null" -> value.isNull();
            default -> false;
        };
    }

    private static String escape(String path) {
        return path.replace("~", "~0").replace("/", "~1");
    }
}
