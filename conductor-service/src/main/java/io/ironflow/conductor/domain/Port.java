package io.ironflow.conductor.domain;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A node's port and Ironic's rules for it: the address is a MAC address, stored lower case
 * (utils.validate_and_normalize_mac), unique among all ports; a port of an active node is added, removed or
 * re-addressed only in maintenance; a VIF is attached by writing its id to a free port's
 * {@code internal_info.tenant_vif_port_id} (Ironic's VIFPortIDMixin). The document is the port as the API shows it
 * and the patch edits: {@code address, pxe_enabled, physical_network, local_link_connection, extra, portgroup_uuid}
 * are writable (the caller checks that a portgroup is the node's own).
 */
public final class Port {

    public static final String VIF_KEY = "tenant_vif_port_id";
    private static final Pattern MAC = Pattern.compile("([0-9a-f]{2}[:-]){5}[0-9a-f]{2}");
    private static final Set<String> WRITABLE = Set.of("address", "pxe_enabled", "physical_network",
            "local_link_connection", "extra", "portgroup_uuid");
    private static final Set<String> DICTIONARIES = Set.of("local_link_connection", "extra");
    private static final ObjectMapper JSON = new ObjectMapper();

    private Port() {
    }

    /** The MAC address in Ironic's normal form (lower case); anything else is 400 InvalidMAC. */
    public static String requireMac(String address) {
        String mac = address == null ? "" : address.toLowerCase();
        if (!MAC.matcher(mac).matches()) {
            throw Rejection.badRequest("Expected a MAC address but received " + address + ".");
        }
        return mac;
    }

    /** Ironic refuses to change the ports of a deployed node unless it is in maintenance. */
    public static void requireChangeable(String nodeUuid, ProvisionState state, boolean maintenance, String what) {
        if (state == ProvisionState.ACTIVE && !maintenance) {
            throw Rejection.conflict("Cannot " + what + " a port of node " + nodeUuid + " in provision state active;"
                    + " put the node in maintenance first.");
        }
    }

    /**
     * Applies an RFC 6902 patch (add, replace, remove) to the port's writable fields; a whole-field value of the
     * wrong type, or a read-only path, is 400. Answers the new document; {@code port} is not changed.
     */
    @SuppressWarnings("unchecked")
    public static Map<String, Object> patch(Map<String, Object> port, String patchJson) {
        Map<String, Object> doc = new LinkedHashMap<>(port);
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
                if (field.equals("address")) {
                    throw Rejection.badRequest("'/address' is a mandatory attribute and can not be removed");
                }
                doc.put(field, DICTIONARIES.contains(field) ? new LinkedHashMap<>() : field.equals("pxe_enabled") ? true : null);
                continue;
            }
            boolean typed = switch (field) {
                case "address" -> value instanceof String;
                case "pxe_enabled" -> value instanceof Boolean;
                case "physical_network", "portgroup_uuid" -> value == null || value instanceof String;
                default -> value instanceof Map;
            };
            if (!typed) {
                throw Rejection.badRequest("Invalid input for field/attribute " + field + ". Value: '" + value + "'.");
            }
            doc.put(field, field.equals("address") ? requireMac((String) value) : value);
        }
        return doc;
    }
}
