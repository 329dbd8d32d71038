package io.ironflow.conductor.domain;

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
    private static final SubResourcePatch PATCH = new SubResourcePatch(WRITABLE, Set.of("properties", "extra"),
            Set.of("mode"), Map.of("standalone_ports_supported", true), Portgroup::value);

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
    public static Map<String, Object> patch(Map<String, Object> portgroup, String patchJson) {
        return PATCH.apply(portgroup, patchJson);
    }

    private static Object value(String field, Object value, Map<String, Object> portgroup) {
        return switch (field) {
            case "address" -> value == null ? null : Port.requireMac(text(field, value));
            case "name" -> requireName(value == null ? null : text(field, value), "Portgroup "
                    + portgroup.get("uuid") + ": Cannot change name to invalid name '" + value + "'");
            case "mode" -> text(field, value);
            default -> SubResourcePatch.bool(field, value); // standalone_ports_supported
        };
    }

    private static String text(String field, Object value) {
        if (!(value instanceof String s)) {
            throw SubResourcePatch.invalid(field, value);
        }
        return s;
    }
}
