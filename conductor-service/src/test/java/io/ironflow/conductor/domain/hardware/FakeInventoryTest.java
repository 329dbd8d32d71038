package io.ironflow.conductor.domain.hardware;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Fake inspection finds the machine the node describes, the same one every time, in the agent's format. */
class FakeInventoryTest {

    private static final UUID NODE = UUID.fromString("1be26c0b-03f2-4d2e-ae87-c02d7f33c123");
    private final FakeHardware driver = new FakeHardware();

    @Test
    @SuppressWarnings("unchecked")
    void inventoryComesFromPropertiesPortsBootModeAndBmc() {
        Map<String, Object> facts = FakeInventory.facts(NODE,
                Map.of("cpus", "8", "cpu_arch", "aarch64", "memory_mb", 16384, "local_gb", 100),
                List.of(Map.of("address", "52:54:00:00:00:01", "pxe_enabled", false),
                        Map.of("address", "52:54:00:00:00:02", "pxe_enabled", true)),
                "uefi", Map.of("redfish_address", "https://10.0.0.9"));
        FakeHardwareRecord hw = FakeHardwareRecord.fromJson(null);
        driver.run(PlannedStep.operation(HardwareDriver.INSPECT, facts), hw);

        Map<String, Object> inventory = hw.inventory();
        assertEquals(Map.of("model_name", "Ironflow Fake CPU", "frequency", "2400.0000", "count", 8,
                "architecture", "aarch64", "flags", ((Map<String, Object>) inventory.get("cpu")).get("flags")), inventory.get("cpu"));
        assertEquals(Map.of("total", 16384L * 1024 * 1024, "physical_mb", 16384), inventory.get("memory"));
        Map<String, Object> disk = ((List<Map<String, Object>>) inventory.get("disks")).get(0);
        assertEquals(100L * 1024 * 1024 * 1024, disk.get("size"));
        List<Map<String, Object>> nics = (List<Map<String, Object>>) inventory.get("interfaces");
        assertEquals(List.of("eth0", "eth1"), nics.stream().map(n -> n.get("name")).toList());
        assertEquals(List.of("52:54:00:00:00:01", "52:54:00:00:00:02"), nics.stream().map(n -> n.get("mac_address")).toList());
        assertEquals(Map.of("current_boot_mode", "uefi", "pxe_interface", "52:54:00:00:00:02"), inventory.get("boot"));
        assertEquals("https://10.0.0.9", inventory.get("bmc_address"));
        assertEquals("Ironflow", ((Map<String, Object>) inventory.get("system_vendor")).get("manufacturer"));

        Map<String, Object> plugin = hw.pluginData();
        assertEquals(List.of("52:54:00:00:00:01", "52:54:00:00:00:02"), plugin.get("macs"));
        assertEquals("52:54:00:00:00:02", plugin.get("boot_interface"));
        assertEquals(disk, plugin.get("root_disk"));
        assertEquals(false, ((Map<String, Map<String, Object>>) plugin.get("all_interfaces")).get("eth0").get("pxe_enabled"));
    }

    @Test
    @SuppressWarnings("unchecked")
    void theSameNodeIsTheSameMachineAndAnotherNodeAnother() {
        Map<String, Object> facts = FakeInventory.facts(NODE, Map.of(), List.of(), null, null);
        assertEquals(FakeInventory.inventory(facts), FakeInventory.inventory(facts));
        Map<String, Object> vendor = (Map<String, Object>) FakeInventory.inventory(facts).get("system_vendor");
        Map<String, Object> other = (Map<String, Object>) FakeInventory.inventory(
                FakeInventory.facts(UUID.randomUUID(), Map.of(), List.of(), null, null)).get("system_vendor");
        assertNotEquals(vendor.get("serial_number"), other.get("serial_number"));
        Map<String, Object> inventory = FakeInventory.inventory(facts);
        assertEquals(List.of(), inventory.get("interfaces"));
        assertNull(((Map<String, Object>) inventory.get("boot")).get("pxe_interface"));
        assertEquals("bios", ((Map<String, Object>) inventory.get("boot")).get("current_boot_mode"));
        assertEquals(1, ((Map<String, Object>) inventory.get("cpu")).get("count"), "a machine has a CPU even if the node does not say");
    }

    @Test
    void neverInspectedHasNoInventory() {
        FakeHardwareRecord hw = FakeHardwareRecord.fromJson(null);
        assertNull(hw.inventory());
        assertNull(hw.pluginData());
        assertNull(FakeHardwareRecord.fromJson(hw.toJson()).inventory());
    }
}
