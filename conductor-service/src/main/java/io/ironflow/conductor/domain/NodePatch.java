package io.ironflow.conductor.domain;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ironflow.schemas.OsloBooleans;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * RFC 6902 JSON Patch over the writable part of Ironic's node document (PATCH /v1/nodes/{id}): add, remove
 * and replace on the paths Ironic lets clients change; anything else is refused before anything changes.
 */
public final class NodePatch {

    /** Top-level fields a patch may set or remove. */
    public static final Set<String> WRITABLE = Set.of("name", "description", "driver", "driver_info", "properties",
            "extra", "instance_info", "instance_uuid", "resource_class", "owner", "lessee", "automated_clean",
            "conductor_group", "retired", "retired_reason", "network_data", "shard");
    /** Fields a node cannot be without (Ironic's node schema requires driver): never removed, never null. */
    private static final Set<String> REQUIRED = Set.of("driver");
    /** Dictionaries whose members a patch may address one by one (/extra/foo). */
    private static final Set<String> DICTIONARIES = Set.of("driver_info", "properties", "extra", "instance_info",
            "network_data");
    /** Booleans Ironic also takes as text ("True", "no", ...), which is how the openstack CLI sends them. */
    private static final Set<String> BOOLEANS = Set.of("retired", "automated_clean");
    /** Fields whose value is text (or null); Ironic's API types them as strings. */
    private static final Set<String> TEXTS = Set.of("name", "description", "driver", "instance_uuid", "resource_class",
            "owner", "lessee", "conductor_group", "retired_reason", "shard");
    private static final ObjectMapper JSON = new ObjectMapper();

    private NodePatch() {
    }

    /**
     * The top-level fields {@code patchJson}'s operations address ({@code /extra/a} addresses extra); empty when it
     * is no patch at all, which {@link #apply} refuses.
     */
    public static Set<String> fields(String patchJson) {
        Set<String> fields = new java.util.HashSet<>();
        try {
            for (JsonNode op : JSON.readTree(patchJson)) {
                String[] parts = op.path("path").asText("").split("/", 3);
                fields.add(parts.length > 1 ? parts[1] : "");
            }
        } catch (JsonProcessingException | RuntimeException e) {
            return Set.of();
        }
        return fields;
    }

    /** Whether an operation of {@code patchJson} sets {@code path} (add or replace; Ironic's get_patch_values). */
    public static boolean sets(String patchJson, String path) {
        try {
            for (JsonNode op : JSON.readTree(patchJson)) {
                if (path.equals(op.path("path").asText()) && !"remove".equals(op.path("op").asText())) {
                    return true;
                }
            }
        } catch (JsonProcessingException | RuntimeException e) {
            return false; // no patch: apply refuses it
        }
        return false;
    }

    /** Whether {@code patchJson} is exactly one operation, the removal of {@code path}. */
    public static boolean isRemovalOf(String patchJson, String path) {
        try {
            JsonNode patch = JSON.readTree(patchJson);
            return patch != null && patch.isArray() && patch.size() == 1 && "remove".equals(patch.get(0).path("op").asText())
                    && path.equals(patch.get(0).path("path").asText());
        } catch (JsonProcessingException e) {
            return false;
        }
    }

    /**
     * Applies {@code patchJson} to {@code document} (the node's writable fields; changed in place). A read-only or
     * unknown path, an unsupported op, a missing value or a remove of an absent member is a 400.
     */
    /** oslo's bool_from_string(strict=True), as Ironic's API validates boolean node fields. */
    private static Boolean bool(String field, String text) {
        return OsloBooleans.parse(text).orElseThrow(() -> Rejection.badRequest("Invalid input for field/attribute " + field
                + ". Value: '" + text + "'. Unrecognized value '" + text + "', acceptable values are: " + OsloBooleans.ACCEPTED));
    }

    @SuppressWarnings("unchecked")
    public static void apply(Map<String, Object> document, String patchJson) {
        JsonNode patch;
        try {
            patch = JSON.readTree(patchJson);
        } catch (JsonProcessingException e) {
            throw Rejection.badRequest("Invalid patch: " + e.getOriginalMessage());
        }
        if (patch == null || !patch.isArray() || patch.isEmpty()) {
            throw Rejection.badRequest("Invalid patch: expected a non-empty JSON array of operations.");
        }
        for (JsonNode op : patch) {
            String kind = op.path("op").asText("");
            String path = op.path("path").asText("");
            if (!Set.of("add", "replace", "remove").contains(kind)) {
                throw Rejection.badRequest("Invalid patch operation '" + kind + "' for " + path + ": only add, replace and remove are supported.");
            }
            String[] parts = path.split("/", -1);
            if (parts.length < 2 || !parts[0].isEmpty() || parts[1].isEmpty()) {
                throw Rejection.badRequest("Invalid patch path '" + path + "'.");
            }
            String field = parts[1];
            if (!WRITABLE.contains(field)) {
                throw Rejection.badRequest("'/" + field + "' is an internal attribute and can not be updated");
            }
            if (parts.length > 3 || (parts.length == 3 && !DICTIONARIES.contains(field))) {
                throw Rejection.badRequest("Invalid patch path '" + path + "'.");
            }
            Object value = null;
            if (!kind.equals("remove")) {
                if (!op.has("value")) {
                    throw Rejection.badRequest("Invalid patch: '" + kind + "' on " + path + " needs a value.");
                }
                value = JSON.convertValue(op.get("value"), Object.class);
                if (parts.length == 2 && BOOLEANS.contains(field) && value instanceof String text) {
                    value = bool(field, text);
                }
            }
            if (parts.length == 3) {
                String member = SubResourcePatch.member(parts[2]);
                Object current = document.get(field);
                Map<String, Object> dict = current instanceof Map<?, ?> m ? new LinkedHashMap<>((Map<String, Object>) m) : new LinkedHashMap<>();
                if (kind.equals("remove")) {
                    if (!dict.containsKey(member)) { // a member set to null exists, and can be removed
                        throw Rejection.badRequest("Can't remove non-existent object '" + member + "' from " + field + ".");
                    }
                    dict.remove(member);
                } else if (kind.equals("replace") && !dict.containsKey(member)) {
                    throw Rejection.badRequest("Can't replace non-existent object '" + member + "' in " + field + ".");
                } else {
                    dict.put(member, value);
                }
                document.put(field, dict);
            } else if (kind.equals("remove")) {
                if (REQUIRED.contains(field)) { // Ironic's schema validation of the patched node
                    throw Rejection.badRequest("Schema error for patch: '" + field + "' is a required property");
                }
                document.put(field, DICTIONARIES.contains(field) ? new LinkedHashMap<>() : null);
            } else {
                if (DICTIONARIES.contains(field) && !(value instanceof Map)) {
                    throw Rejection.badRequest("Invalid input for field/attribute " + field + ". Expected a JSON object.");
                }
                document.put(field, value);
            }
        }
        requireTypes(document);
    }

    /**
     * The patched document holds only values the node's columns can take: a wrong type is the client's error
     * (400), never an exception in the middle of writing the node.
     */
    private static void requireTypes(Map<String, Object> document) {
        for (Map.Entry<String, Object> field : document.entrySet()) {
            Object value = field.getValue();
            String name = field.getKey();
            boolean ok = value == null ? !DICTIONARIES.contains(name) && !REQUIRED.contains(name)
                    : TEXTS.contains(name) ? value instanceof String
                    : DICTIONARIES.contains(name) ? value instanceof Map
                    : BOOLEANS.contains(name) ? value instanceof Boolean
                    : true;
            if (!ok) {
                throw Rejection.badRequest("Invalid input for field/attribute " + name + ". Value: '" + value
                        + "'. Wrong type. Expected " + (TEXTS.contains(name) ? "a string" : DICTIONARIES.contains(name)
                        ? "a JSON object" : "a boolean") + ", got " + jsonType(value) + ".");
            }
        }
    }

    private static String jsonType(Object value) {
        return value == null ? "null" : value instanceof Map ? "an object" : value instanceof List ? "an array"
                : value instanceof Boolean ? "a boolean" : value instanceof Number ? "a number" : "a string";
    }
}
