package io.ironflow.oneview.allocation;

/**
 * Who holds a node's server hardware, exactly as the dynamic-allocation spec says (Ironic's
 * {@code _is_node_in_use}): no profile applied, free; the profile the node's
 * {@code driver_info.applied_server_profile_uri} names, Ironflow's; any other profile, a OneView user's.
 */
public enum Ownership {
    FREE, IRONFLOW, ONEVIEW;

    public static Ownership of(String serverProfileUri, String appliedServerProfileUri) {
        if (serverProfileUri == null || serverProfileUri.isEmpty()) {
            return FREE;
        }
        return serverProfileUri.equals(appliedServerProfileUri) ? IRONFLOW : ONEVIEW;
    }
}
