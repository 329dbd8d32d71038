package io.ironflow.teardown.ironflow;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;

/**
 * Which of a node's disks hold local data rather than the OS, for {@code preserve-local-storage}. The disks are
 * the node's inventory as its driver reports it ({@code driver_info.fake_disks} for the fake-hardware and OneView
 * drivers: Ironflow keeps no inspection inventory); the OS disk is the one Ironic's root device hint
 * ({@code properties.root_device.name}) names, else the first disk.
 */
public final class LocalDisks {

    private LocalDisks() {
    }

    /** Every disk of the node but its OS disk; empty when it has only one (or none known). */
    public static List<String> dataDisks(JsonNode node) {
        List<String> disks = new ArrayList<>();
        node.path("driver_info").path("fake_disks").forEach(d -> disks.add(d.asText()));
        if (disks.isEmpty()) {
            return List.of();
        }
        JsonNode hint = node.path("properties").path("root_device").path("name");
        String os = hint.isTextual() ? bare(hint.asText()) : bare(disks.get(0));
        return disks.stream().filter(d -> !bare(d).equals(os)).toList();
    }

    private static String bare(String device) {
        return device.startsWith("/dev/") ? device.substring("/dev/".length()) : device;
    }
}
