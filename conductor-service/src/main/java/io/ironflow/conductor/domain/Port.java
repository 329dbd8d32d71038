package io.ironflow.conductor.domain;

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
    private static final SubResourcePatch PATCH = new SubResourcePatch(WRITABLE, Set.of("local_link_connection", "extra"),
            Set.of("address"), Map.of("pxe_enabled", true), Port::value);

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
    public static Map<String, Object> patch(Map<String, Object> port, String patchJson) {
        return PATCH.apply(port, patchJson);
    }

    private static Object value(String field, Object value, Map<String, Object> port) {
        if (field.equals("pxe_enabled")) { // the CLI's --pxe-disabled sends "False"
            return SubResourcePatch.bool(field, value);
        }
        boolean typed = switch (field) {
            case "address" -> value instanceof String;
            default -> value == null || value instanceof String; // physical_network, portgroup_uuid
        };
        if (!typed) {
            throw SubResourcePatch.invalid(field, value);
        }
        return field.equals("address") ? requireMac((String) value) : value;
    }
}
