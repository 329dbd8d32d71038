package io.ironflow.conductor.intents;

import io.ironflow.conductor.node.Node;
import io.ironflow.conductor.persistence.NodeEntity;

/**
 * What the management interface does for {@code PUT /v1/nodes/{id}/states/boot_mode} and {@code .../secure_boot}
 * (Ironic 1.75), as Ironic's conductor/utils.py node_change_boot_mode and node_change_secure_boot do it: the
 * request is accepted (202), a change to the current value does nothing, and a change the hardware refuses is
 * reported in {@code last_error} with the setting unchanged. fake-hardware supports both boot modes; like real
 * Redfish hardware it enables secure boot only in uefi mode.
 */
final class ManagementSettings {

    private ManagementSettings() {
    }

    static void setBootMode(Node aggregate, String target) {
        NodeEntity node = aggregate.state();
        aggregate.clearError(); // a new operation starts: Ironic clears the previous error
        node.bootMode = target;
        if ("bios".equals(target) && Boolean.TRUE.equals(node.secureBoot)) {
            node.secureBoot = false; // legacy BIOS has no secure boot
        }
    }

    static void setSecureBoot(Node aggregate, boolean target) {
        NodeEntity node = aggregate.state();
        aggregate.clearError();
        if (target && !"uefi".equals(node.bootMode)) {
            aggregate.recordError("Failed to set secure boot state on node " + node.uuid + " to True: secure boot can only"
                    + " be enabled when the node boots in uefi mode (boot mode is " + node.bootMode + ").");
            return;
        }
        node.secureBoot = target;
    }
}
