package io.ironflow.conductor.domain;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * A node's portgroup and Ironic's rules for it (api/controllers/v1/portgroup.py): the name is a logical name
 * (optional), the address a MAC address stored lower case (optional), {@code mode} defaults to
 * {@code active-backup} (Ironic's {@code [DEFAULT]default_portgroup_mode}), {@code standalone_ports_supported} to
 * true; name and address are unique among all portgroups (the caller checks, with the table). The document is the
 * portgroup as the API shows it and the patch edits: {@code address, name, mode, properties, extra,
 * standalone_ports_supported} are writable.
 */
public final class Portgroup {

    public static final String DEFAULT_MODE = "active-backup";
    private static final Set<String> WRITABLE = Set.of("address", "name", "mode", "properties", "extra",
            "standalone_ports_supported");
    private static final Set<String> DICTIONARIES = Set.of("properties", "extra");
    private static final ObjectMapper JSON = new ObjectMapper();

    private Portgroup() {
    }

    /** A portgroup name: null (none) or Ironic's logical name; anything else 400 with Ironic's message. */
    public static String requireName(String name, String invalid) {
        if (name != null && !NodeNames.isValidName(name)) {
            throw Rejection.badRequest(invalid);
        }
        return name;
    }

    /** Ironic refuses to change the portgroups of a deployed node unless it is in maintenance, as for its ports. */
    public static void requireChangeable(String nodeUuid, ProvisionState state, boolean maintenance, String what) {
        if (state == ProvisionState.ACTIVE && !maintenance) {
            throw Rejection.conflict("Cannot " + what + " a portgroup of node " + nodeUuid + " in provision state active;"
                    + " put the node in maintenance first.");
        }
    }

    /**
     * Applies an RFC 6902 patch (add, replace, remove) to the portgroup's writable fields; a value of the wrong type
     * or a read-only path is 400. Answers the new document; {@code portgroup} is not changed.
     */
    @SuppressWarnings("unchecked")
    public static Map<String, Object> patch(Map<String, Object> portgroup, String patchJson) {
        Map<String, Object> doc = new LinkedHashMap<>(portgroup);
        JsonNode patch;
        try {
            patch = JSON.readTree(patchJson);
        } catch (Exception e) {
            throw Rejection.badRequest("Invalid patch: not JSON.");
        }
        if (patch == null || !patch.isArray()) {
            throw Rejection.badRequest("Invalid patch: a JSON array of operations is expected.");
        }
        for (JsonNode op : patch) {
            String kind = op.path("op").asText("");
            String path = op.path("path").asText("");
            String[] parts = path.split("/", -1);
            if (!Set.of("add", "replace", "remove").contains(kind) || parts.length < 2 || !parts[0].isEmpty()) {
                throw Rejection.badRequest("Invalid patch operation '" + kind + "' on '" + path + "'.");
            }
            String field = parts[1];
            if (!WRITABLE.contains(field)) {
                throw Rejection.badRequest("'/" + field + "' is an internal attribute and can not be updated");
            }
            if (parts.length > 3 || (parts.length == 3 && !DICTIONARIES.contains(field))) {
                throw Rejection.badRequest("Invalid patch path '" + path + "'.");
            }
            Object value = kind.equals("remove") ? null : JSON.convertValue(op.get("value"), Object.class);
            if (parts.length == 3) {
                Map<String, Object> dict = new LinkedHashMap<>((Map<String, Object>) doc.getOrDefault(field, Map.of()));
                if (kind.equals("remove")) {
                    if (dict.remove(parts[2]) == null) {
                        throw Rejection.badRequest("Can't remove non-existent object '" + parts[2] + "'.");
                    }
                } else {
                    dict.put(parts[2], value);
                }
                doc.put(field, dict);
                continue;
            }
            if (kind.equals("remove")) {
                if (field.equals("mode")) {
                    throw Rejection.badRequest("'mode' is a mandatory attribute and can not be removed");
                }
                doc.put(field, DICTIONARIES.contains(field) ? new LinkedHashMap<>()
                        : field.equals("standalone_ports_supported") ? true : null);
                continue;
            }
            doc.put(field, switch (field) {
                case "address" -> value == null ? null : Port.requireMac(text(field, value));
                case "name" -> requireName(value == null ? null : text(field, value), "Portgroup "
                        + doc.get("uuid") + ": Cannot change name to invalid name '" + value + "'");
                case "mode" -> text(field, value);
                case "standalone_ports_supported" -> bool(value);
                default -> {
                    if (!(value instanceof Map)) {
                        throw invalid(field, value);
                    }
                    yield value;
                }
            });
        }
        return doc;
    }

    /** Ironic's args.boolean: a JSON boolean or its text form ("true", "no", ...). */
    public static boolean bool(Object value) {
        if (value instanceof Boolean b) {
            return b;
        }
        if (value instanceof String s) {
            switch (s.trim().toLowerCase(Locale.ROOT)) {
                case "1", "t", "true", "on", "y", "yes" -> {
                    return true;
                }
                case "0", "f", "false", "off", "n", "no" -> {
                    return false;
                }
                default -> {
                }
            }
        }
        throw invalid("standalone_ports_supported", value);
    }

    private static String text(String field, Object value) {
        if (!(value instanceof String s)) {
            throw invalid(field, value);
        }
        return s;
    }

    private static Rejection invalid(String field, Object value) {
        return Rejection.badRequest("Invalid input for field/attribute " + field + ". Value: '" + value + "'.");
    }
}
