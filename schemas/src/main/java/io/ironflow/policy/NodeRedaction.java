package io.ironflow.policy;

import io.ironflow.events.NodeSnapshot;

/**
 * A node as one principal may read it: Ironic's redaction texts (ironic/api/controllers/v1/node.py,
 * node_sanitize) in place of driver_info, last_error and reservation when their get rule refuses. The API renders
 * with it, and the conductor puts only this into an intent's result, which any intent producer may read.
 */
public final class NodeRedaction {

    private NodeRedaction() {
    }

    public static NodeSnapshot forReader(Policy policy, Principal who, NodeSnapshot node) {
        NodeOwnership owned = new NodeOwnership(node.getOwner(), node.getLessee());
        boolean driverInfo = policy.allows("baremetal:node:get:driver_info", who, owned);
        boolean lastError = policy.allows("baremetal:node:get:last_error", who, owned);
        boolean reservation = policy.allows("baremetal:node:get:reservation", who, owned);
        if (driverInfo && lastError && reservation) {
            return node;
        }
        NodeSnapshot.Builder redacted = NodeSnapshot.newBuilder(node);
        if (!driverInfo) {
            redacted.setDriverInfo("{\"content\": \"** Redacted - requires baremetal:node:get:driver_info permission. **\"}");
        }
        if (!lastError && node.getLastError() != null) {
            redacted.setLastError("** Value Redacted - Requires baremetal:node:get:last_error permission. **");
        }
        if (!reservation && node.getReservation() != null) {
            redacted.setReservation("** Redacted - requires baremetal:node:get:reservation permission. **");
        }
        return redacted.build();
    }
}
