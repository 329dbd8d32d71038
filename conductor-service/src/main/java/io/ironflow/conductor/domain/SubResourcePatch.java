package io.ironflow.conductor.domain;

import io.ironflow.schemas.OsloBooleans;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * Ironic's JSON patch (RFC 6902 add, replace, remove) of the document of a node's sub-resource (a port, a
 * portgroup), as its API shows it. Contract: only {@code writable} fields are patched ('internal attribute'
 * otherwise); a {@code dictionaries} field is patched whole (a JSON object) or one key deep; a {@code mandatory}
 * field is never removed; a removed field goes back to its entry in {@code defaults} ({} for a dictionary, null for
 * any other); every other value goes through {@code values}, which answers the value to store or throws a 400
 * Rejection. Every breach is 400 with Ironic's message; {@link #apply} answers a new document and never changes
 * the one it is given.
 */
public record SubResourcePatch(Set<String> writable, Set<String> dictionaries, Set<String> mandatory,
        Map<String, Object> defaults, FieldValues values) {

    private static final Set<String> OPERATIONS = Set.of("add", "replace", "remove");
    private static final ObjectMapper JSON = new ObjectMapper();

    /** The rule for a scalar field's new value: the value to store, or a 400 Rejection. */
    @FunctionalInterface
    public interface FieldValues {
        Object check(String field, Object value, Map<String, Object> document);
    }

    /** {@code document} with the patch applied; {@code document} itself is not changed. */
    @SuppressWarnings("unchecked")
    public Map<String, Object> apply(Map<String, Object> document, String patchJson) {
        Map<String, Object> doc = new LinkedHashMap<>(document);
        for (JsonNode op : operations(patchJson)) {
            String kind = op.path("op").asText("");
            String path = op.path("path").asText("");
            String[] parts = path.split("/", -1);
            if (!OPERATIONS.contains(kind) || parts.length < 2 || !parts[0].isEmpty()) {
                throw Rejection.badRequest("Invalid patch operation '" + kind + "' on '" + path + "'.");
            }
            String field = parts[1];
            if (!writable.contains(field)) {
                throw Rejection.badRequest("'/" + field + "' is an internal attribute and can not be updated");
            }
            if (parts.length > 3 || (parts.length == 3 && !dictionaries.contains(field))) {
                throw Rejection.badRequest("Invalid patch path '" + path + "'.");
            }
            boolean remove = kind.equals("remove");
            if (!remove && !op.has("value")) { // not a null: a missing value would clear the field
                throw Rejection.badRequest("Invalid patch: '" + kind + "' on " + path + " needs a value.");
            }
            Object value = remove ? null : JSON.convertValue(op.get("value"), Object.class);
            if (parts.length == 3) {
                String member = member(parts[2]);
                Map<String, Object> dict = new LinkedHashMap<>((Map<String, Object>) doc.getOrDefault(field, Map.of()));
                if (remove) {
                    if (!dict.containsKey(member)) { // a member set to null exists, and can be removed
                        throw Rejection.badRequest("Can't remove non-existent object '" + member + "' from " + field + ".");
                    }
                    dict.remove(member);
                } else if (kind.equals("replace") && !dict.containsKey(member)) {
                    throw Rejection.badRequest("Can't replace non-existent object '" + member + "' in " + field + ".");
                } else {
                    dict.put(member, value);
                }
                doc.put(field, dict);
            } else if (remove) {
                if (mandatory.contains(field)) {
                    throw Rejection.badRequest("'/" + field + "' is a mandatory attribute and can not be removed");
                }
                doc.put(field, dictionaries.contains(field) ? new LinkedHashMap<>() : defaults.get(field));
            } else if (dictionaries.contains(field)) {
                if (!(value instanceof Map)) {
                    throw invalid(field, value);
                }
                doc.put(field, value);
            } else {
                doc.put(field, values.check(field, value, doc));
            }
        }
        return doc;
    }

    /** A dictionary member named by a patch path's token: RFC 6901 escapes {@code /} as ~1 and {@code ~} as ~0. */
    static String member(String token) {
        return token.replace("~1", "/").replace("~0", "~");
    }

    /** Ironic's args.boolean: a JSON boolean or its text form ("true", "no", ...); anything else is 400. */
    public static boolean bool(String field, Object value) {
        if (value instanceof Boolean b) {
            return b;
        }
        if (value instanceof String s && OsloBooleans.parse(s).isPresent()) {
            return OsloBooleans.parse(s).get();
        }
        throw invalid(field, value);
    }

    /** Ironic's message for a value of the wrong kind. */
    public static Rejection invalid(String field, Object value) {
        return Rejection.badRequest("Invalid input for field/attribute " + field + ". Value: '" + value + "'.");
    }

    private static JsonNode operations(String patchJson) {
        JsonNode patch;
        try {
            patch = JSON.readTree(patchJson);
        } catch (Exception e) {
            throw Rejection.badRequest("Invalid patch: not JSON.");
        }
        if (patch == null || !patch.isArray()) {
            throw Rejection.badRequest("Invalid patch: a JSON array of operations is expected.");
        }
        return patch;
    }
}
