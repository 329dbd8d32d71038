package io.ironflow.conductor.domain;

import java.util.Set;

/**
 * The rules for node settings newer than the provision state machine: the shard (Ironic API 1.82, a string of at
 * most 255 characters, as Ironic's column) and the boot mode and secure boot that the management interface sets
 * (1.75: {@code PUT .../states/boot_mode} takes bios or uefi, {@code .../secure_boot} a boolean).
 */
public final class NodeSettings {

    /** Ironic's boot_modes.ALL_BOOT_MODES. */
    public static final Set<String> BOOT_MODES = Set.of("bios", "uefi");
    private static final int SHARD_LENGTH = 255;

    private NodeSettings() {
    }

    public static void requireValidShard(String shard) {
        if (shard != null && (shard.isEmpty() || shard.length() > SHARD_LENGTH)) {
            throw Rejection.badRequest("Invalid input for field/attribute shard. Value: '" + shard
                    + "'. A shard is 1 to 255 characters.");
        }
    }

    /** Ironic (NodeStatesController.boot_mode): anything but bios or uefi is 400 before the conductor is asked. */
    public static void requireValidBootMode(String target) {
        if (!BOOT_MODES.contains(target)) {
            throw Rejection.badRequest("Invalid boot mode " + target + " requested for node.");
        }
    }
}
