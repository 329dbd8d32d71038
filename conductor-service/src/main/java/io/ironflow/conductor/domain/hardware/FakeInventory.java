package io.ironflow.conductor.domain.hardware;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * What fake inspection finds: an inventory in ironic-python-agent's format ({@code cpu}, {@code memory},
 * {@code disks}, {@code interfaces}, {@code system_vendor}, {@code boot}, {@code bmc_address}, {@code hostname})
 * and the inspector's {@code plugin_data} ({@code macs}, {@code all_interfaces}, {@code valid_interfaces},
 * {@code boot_interface}, {@code root_disk}), as Ironic serves them from {@code GET /v1/nodes/{id}/inventory}.
 * The simulated machine is the one the node describes: its {@code properties} ({@code cpus}, {@code cpu_arch},
 * {@code memory_mb}, {@code local_gb}), its ports (one interface per MAC, in creation order), its boot mode and
 * the BMC address in its driver_info. Serial numbers and WWNs derive from the node's uuid, so inspecting the same
 * node twice finds the same machine.
 *
 * <p>The facts travel as the inspect step's arguments ({@link #facts}), so the driver sees the node as it was
 * when inspection started.
 */
public final class FakeInventory {

    /** Used when the node's properties do not say (Ironic's fake interfaces assume nothing; a machine has some). */
    private static final int DEFAULT_CPUS = 1;
    private static final String DEFAULT_ARCH = "x86_64";
    private static final long DEFAULT_MEMORY_MB = 1024;
    private static final long DEFAULT_LOCAL_GB = 10;
    private static final long MIB = 1024L * 1024L;
    private static final long GIB = 1024L * MIB;

    private FakeInventory() {
    }

    /**
     * The inspect step's arguments. {@code ports} are the node's ports in creation order, each with
     * {@code address} and {@code pxe_enabled}; {@code bootMode} may be null.
     */
    public static Map<String, Object> facts(UUID node, Map<String, Object> properties, List<Map<String, Object>> ports,
            String bootMode, Map<String, Object> driverInfo) {
        Map<String, Object> facts = new LinkedHashMap<>();
        facts.put("node_uuid", node.toString());
        facts.put("properties", properties == null ? Map.of() : new LinkedHashMap<>(properties));
        List<Map<String, Object>> nics = new ArrayList<>();
        for (Map<String, Object> port : ports) {
            Map<String, Object> nic = new LinkedHashMap<>();
            nic.put("address", port.get("address"));
            nic.put("pxe_enabled", !Boolean.FALSE.equals(port.get("pxe_enabled")));
            nics.add(nic);
        }
        facts.put("ports", nics);
        facts.put("boot_mode", bootMode);
        facts.put("bmc_address", bmcAddress(driverInfo));
        return facts;
    }

    /** The inventory for the facts of {@link #facts}. */
    public static Map<String, Object> inventory(Map<String, Object> facts) {
        Map<String, Object> properties = map(facts.get("properties"));
        String seed = String.valueOf(facts.get("node_uuid"));
        Map<String, Object> inventory = new LinkedHashMap<>();
        inventory.put("interfaces", interfaces(facts));
        Map<String, Object> cpu = new LinkedHashMap<>();
        cpu.put("model_name", "Ironflow Fake CPU");
        cpu.put("frequency", "2400.0000");
        cpu.put("count", whole(number(properties.get("cpus"), DEFAULT_CPUS)));
        String arch = properties.get("cpu_arch") instanceof String a && !a.isBlank() ? a : DEFAULT_ARCH;
        cpu.put("architecture", arch);
        cpu.put("flags", List.of("fpu", "vme", "de", "pse", "tsc", "msr", "pae", "mce", "cx8", "apic", "sep", "lm"));
        inventory.put("cpu", cpu);
        long memoryMb = number(properties.get("memory_mb"), DEFAULT_MEMORY_MB);
        Map<String, Object> memory = new LinkedHashMap<>();
        memory.put("total", whole(memoryMb * MIB));
        memory.put("physical_mb", whole(memoryMb));
        inventory.put("memory", memory);
        inventory.put("disks", List.of(rootDisk(seed, number(properties.get("local_gb"), DEFAULT_LOCAL_GB))));
        inventory.put("bmc_address", facts.get("bmc_address") == null ? "0.0.0.0" : facts.get("bmc_address"));
        inventory.put("bmc_v6address", "::/0");
        Map<String, Object> firmware = new LinkedHashMap<>();
        firmware.put("vendor", "Ironflow");
        firmware.put("version", "1.0");
        firmware.put("build_date", "01/01/2026");
        Map<String, Object> vendor = new LinkedHashMap<>();
        vendor.put("product_name", "Ironflow Fake Hardware");
        vendor.put("serial_number", serial(seed, "system"));
        vendor.put("manufacturer", "Ironflow");
        vendor.put("firmware", firmware);
        inventory.put("system_vendor", vendor);
        Map<String, Object> boot = new LinkedHashMap<>();
        boot.put("current_boot_mode", "uefi".equals(facts.get("boot_mode")) ? "uefi" : "bios");
        boot.put("pxe_interface", pxeMac(facts));
        inventory.put("boot", boot);
        inventory.put("hostname", "node-" + seed.substring(0, Math.min(8, seed.length())));
        return inventory;
    }

    /** The inspector's plugin data for the facts of {@link #facts}, consistent with {@link #inventory}. */
    @SuppressWarnings("unchecked")
    public static Map<String, Object> pluginData(Map<String, Object> facts) {
        Map<String, Object> inventory = inventory(facts);
        Map<String, Object> all = new LinkedHashMap<>();
        List<String> macs = new ArrayList<>();
        List<Map<String, Object>> nics = (List<Map<String, Object>>) inventory.get("interfaces");
        List<Map<String, Object>> ports = list(facts.get("ports"));
        for (int i = 0; i < nics.size(); i++) {
            Map<String, Object> nic = new LinkedHashMap<>(nics.get(i));
            nic.put("pxe_enabled", ports.get(i).get("pxe_enabled"));
            all.put((String) nic.get("name"), nic);
            macs.add((String) nic.get("mac_address"));
        }
        Map<String, Object> plugin = new LinkedHashMap<>();
        plugin.put("all_interfaces", all);
        plugin.put("valid_interfaces", new LinkedHashMap<>(all));
        plugin.put("macs", macs);
        plugin.put("boot_interface", pxeMac(facts));
        plugin.put("root_disk", ((List<Object>) inventory.get("disks")).get(0));
        return plugin;
    }

    private static List<Map<String, Object>> interfaces(Map<String, Object> facts) {
        List<Map<String, Object>> nics = new ArrayList<>();
        List<Map<String, Object>> ports = list(facts.get("ports"));
        for (int i = 0; i < ports.size(); i++) {
            Map<String, Object> nic = new LinkedHashMap<>();
            nic.put("name", "eth" + i);
            nic.put("mac_address", ports.get(i).get("address"));
            nic.put("ipv4_address", null);
            nic.put("ipv6_address", null);
            nic.put("has_carrier", true);
            nic.put("lldp", null);
            nic.put("vendor", "0x1af4");
            nic.put("product", "0x0001");
            nic.put("client_id", null);
            nic.put("biosdevname", null);
            nic.put("speed_mbps", null);
            nics.add(nic);
        }
        return nics;
    }

    private static Map<String, Object> rootDisk(String seed, long localGb) {
        String wwn = "0x" + serial(seed, "disk").toLowerCase().substring(0, 16);
        Map<String, Object> disk = new LinkedHashMap<>();
        disk.put("name", "/dev/sda");
        disk.put("model", "Ironflow Fake Disk");
        disk.put("size", whole(localGb * GIB));
        disk.put("rotational", false);
        disk.put("wwn", wwn);
        disk.put("serial", serial(seed, "disk"));
        disk.put("vendor", "Ironflow");
        disk.put("wwn_with_extension", wwn);
        disk.put("wwn_vendor_extension", null);
        disk.put("hctl", "0:0:0:0");
        disk.put("by_path", "/dev/disk/by-path/pci-0000:00:05.0-scsi-0:0:0:0");
        return disk;
    }

    /** The first pxe-enabled port's MAC (Ironic boots from it), else the first port's, else null. */
    private static Object pxeMac(Map<String, Object> facts) {
        List<Map<String, Object>> ports = list(facts.get("ports"));
        return ports.stream().filter(p -> Boolean.TRUE.equals(p.get("pxe_enabled"))).findFirst()
                .or(() -> ports.stream().findFirst()).map(p -> p.get("address")).orElse(null);
    }

    private static String bmcAddress(Map<String, Object> driverInfo) {
        if (driverInfo == null) {
            return null;
        }
        for (String key : List.of("ipmi_address", "redfish_address", "fake_bmc_address")) {
            if (driverInfo.get(key) instanceof String address && !address.isBlank()) {
                return address;
            }
        }
        return null;
    }

    private static String serial(String seed, String part) {
        return UUID.nameUUIDFromBytes((seed + "/" + part).getBytes(StandardCharsets.UTF_8)).toString()
                .replace("-", "").substring(0, 20).toUpperCase();
    }

    /** A positive whole number from a property (Ironic stores them as numbers or their text), else the default. */
    private static long number(Object value, long fallback) {
        try {
            long n = value instanceof Number num ? num.longValue() : value instanceof String s ? Long.parseLong(s.trim()) : 0;
            return n > 0 ? n : fallback;
        } catch (NumberFormatException e) {
            return fallback;
        }
    }

    /** An int when it fits, as JSON reads it back, so that a stored inventory equals a fresh one. */
    private static Number whole(long n) {
        if (n == (int) n) { // not a ?: expression: that would promote the Integer back to a Long
            return Integer.valueOf((int) n);
        }
        return Long.valueOf(n);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Object value) {
        return value instanceof Map<?, ?> m ? (Map<String, Object>) m : Map.of();
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> list(Object value) {
        return value instanceof List<?> l ? (List<Map<String, Object>>) l : List.of();
    }
}
