package io.ironflow.conductor.domain.hardware;

import static io.ironflow.conductor.domain.hardware.StepArgument.optional;
import static io.ironflow.conductor.domain.hardware.StepArgument.required;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Ironic's {@code fake-hardware} type: nothing real is touched, every effect lands in a {@link FakeHardwareRecord}.
 * Tests steer it through driver_info:
 * <ul>
 * <li>{@code fake_fail_verify: true} makes verification (manage) fail;</li>
 * <li>{@code fake_fail_steps: ["deploy.erase_devices", ...]} makes those steps (or operations) fail;</li>
 * <li>{@code fake_step_seconds: {"deploy.erase_devices": 2.5, "*": 1}} makes steps take time;</li>
 * <li>{@code fake_agent_steps: true} makes the clean steps come from a (simulated) agent: unknown until the
 * node is first cleaned, then cached in driver_internal_info ({@link AgentCleanSteps}).</li>
 * <li>{@code fake_disks: ["sda", "sdb"]} are the node's disks (default one, {@code sda}); the OS disk is the one
 * {@code properties.root_device.name} names, else the first. The erase steps wipe every disk except those the
 * node's {@code properties.skip_block_devices} names ({@code [{"name": "sdb"}]}, as Ironic's agent honours it),
 * and the record keeps which disks were erased how often.</li>
 * </ul>
 * Stateless, so one instance serves every node.
 */
public final class FakeHardware implements HardwareDriver {

    public static final String NAME = "fake-hardware";
    public static final List<String> INTERFACES = List.of("power", "management", "deploy", "boot", "inspect", "bios", "raid");

    public static final String FAIL_VERIFY = "fake_fail_verify";
    public static final String FAIL_STEPS = "fake_fail_steps";
    public static final String STEP_SECONDS = "fake_step_seconds";
    public static final String AGENT_STEPS = "fake_agent_steps";
    public static final String DISKS = "fake_disks";
    /** Ironic's node property: block devices the erase steps leave alone, each {"name": "sdb"} ("/dev/sdb" too). */
    public static final String SKIP_BLOCK_DEVICES = "skip_block_devices";
    static final List<String> DEFAULT_DISKS = List.of("sda");

    /** As Ironic's fake-hardware with every fake interface enabled; no-/noop where this driver has nothing. */
    private static final Map<String, List<String>> IMPLEMENTATIONS = orderedMap(
            "bios", List.of("fake", "no-bios"),
            "boot", List.of("fake"),
            "console", List.of("no-console"),
            "deploy", List.of("fake"),
            "inspect", List.of("fake", "no-inspect"),
            "management", List.of("fake"),
            "network", List.of("noop"),
            "power", List.of("fake"),
            "raid", List.of("fake", "no-raid"),
            "rescue", List.of("fake", "no-rescue"),
            "storage", List.of("noop"),
            "vendor", List.of("no-vendor"));

    private static final Map<String, String> PROPERTIES = orderedMap(
            AGENT_STEPS, "Set to true to simulate clean steps reported by an agent: they are unknown until the node is "
                    + "first cleaned, then cached in driver_internal_info.agent_cached_clean_steps. Optional.",
            DISKS, "The node's disks, a list of device names (default [\"sda\"]); the OS disk is properties.root_device.name, "
                    + "else the first. The erase steps skip those named in properties.skip_block_devices. Optional.",
            FAIL_STEPS, "A list of step keys (\"interface.step\", e.g. \"deploy.erase_devices\") that fail when they run. "
                    + "Optional.",
            FAIL_VERIFY, "Set to true to make verification (manage) fail. Optional.",
            STEP_SECONDS, "An object of step key (or \"*\" for every step) to the seconds the step takes; a step that "
                    + "takes time parks the node in its wait state until it is done. Optional.");

    // Listed in Ironic's interface priority order (management, deploy, bios, raid) so that catalogue order is
    // also Ironic's tie-break order for equal step priorities.
    private static final List<StepDefinition> CATALOGUE = List.of(
            new StepDefinition("management", "update_firmware", 0, false, List.of(
                    required("firmware_images", "A list of firmware images to apply, in order. Each item is an object "
                            + "with \"url\" (required) and optionally \"checksum\" and \"wait\" (seconds to wait after "
                            + "applying)."))),
            // A half-wiped disk is worse than an unwiped one only for metadata; a full erase may stop between passes.
            new StepDefinition("deploy", "erase_devices", 10, true, List.of()),
            new StepDefinition("deploy", "erase_devices_metadata", 99, false, List.of()),
            new StepDefinition("bios", "apply_configuration", 0, false, List.of(
                    required("settings", "A list of BIOS settings to apply, each an object {\"name\": <setting>, "
                            + "\"value\": <value>}, e.g. [{\"name\": \"LogicalProc\", \"value\": \"Enabled\"}]."))),
            new StepDefinition("bios", "factory_reset", 0, false, List.of()),
            new StepDefinition("bios", "cache_bios_settings", 0, false, List.of()),
            new StepDefinition("raid", "create_configuration", 0, true, List.of(
                    optional("create_root_volume", "Set to true (the default) to create the root volume specified in "
                            + "the node's target_raid_config; false prevents the root volume from being created."),
                    optional("create_nonroot_volumes", "Set to true (the default) to create the non-root volumes "
                            + "specified in the node's target_raid_config; false prevents them from being created."))),
            new StepDefinition("raid", "delete_configuration", 0, false, List.of()));

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public List<StepDefinition> cleanSteps() {
        return CATALOGUE;
    }

    @Override
    public Map<String, List<String>> interfaces() {
        return IMPLEMENTATIONS;
    }

    @Override
    public Map<String, String> properties() {
        return PROPERTIES;
    }

    /** Whether this node's clean steps come from the simulated agent ({@code fake_agent_steps: true}). */
    public static boolean agentSteps(Map<String, Object> driverInfo) {
        return driverInfo != null && Boolean.TRUE.equals(driverInfo.get(AGENT_STEPS));
    }

    @Override
    public List<String> validateDriverInfo(Map<String, Object> driverInfo) {
        Map<String, Object> info = driverInfo == null ? Map.of() : driverInfo;
        List<String> problems = new ArrayList<>();
        Object failVerify = info.get(FAIL_VERIFY);
        if (failVerify != null && !(failVerify instanceof Boolean)) {
            problems.add(NAME + ": driver_info." + FAIL_VERIFY + " must be a boolean");
        } else if (Boolean.TRUE.equals(failVerify)) {
            problems.add(NAME + ": driver_info." + FAIL_VERIFY + " is set");
        }
        Object failSteps = info.get(FAIL_STEPS);
        if (failSteps != null && !(failSteps instanceof List<?> l && l.stream().allMatch(String.class::isInstance))) {
            problems.add(NAME + ": driver_info." + FAIL_STEPS + " must be a list of step keys like \"deploy.erase_devices\"");
        }
        Object disks = info.get(DISKS);
        if (disks != null && !(disks instanceof List<?> l && !l.isEmpty() && l.stream().allMatch(d -> d instanceof String n && !n.isBlank())
                && l.stream().distinct().count() == l.size())) {
            problems.add(NAME + ": driver_info." + DISKS + " must be a non-empty list of distinct disk names like \"sda\"");
        }
        Object agent = info.get(AGENT_STEPS);
        if (agent != null && !(agent instanceof Boolean)) {
            problems.add(NAME + ": driver_info." + AGENT_STEPS + " must be a boolean");
        }
        Object seconds = info.get(STEP_SECONDS);
        if (seconds != null) {
            if (!(seconds instanceof Map<?, ?> m)) {
                problems.add(NAME + ": driver_info." + STEP_SECONDS + " must be an object of step key (or \"*\") to seconds");
            } else {
                m.forEach((key, value) -> {
                    if (toDuration(value) == null) {
                        problems.add(NAME + ": driver_info." + STEP_SECONDS + "." + key + " must be a non-negative number of seconds");
                    }
                });
            }
        }
        return problems;
    }

    /** {@code fake_step_seconds[stepKey]}, else {@code fake_step_seconds["*"]}, else zero; invalid values count as zero. */
    @Override
    public Duration duration(String stepKey, Map<String, Object> driverInfo) {
        if (driverInfo == null || !(driverInfo.get(STEP_SECONDS) instanceof Map<?, ?> seconds)) {
            return Duration.ZERO;
        }
        Object value = seconds.containsKey(stepKey) ? seconds.get(stepKey) : seconds.get("*");
        Duration d = toDuration(value);
        return d == null ? Duration.ZERO : d;
    }

    @Override
    public StepResult run(PlannedStep step, Map<String, Object> driverInfo, FakeHardwareRecord hw) {
        return run(step, driverInfo, Map.of(), hw);
    }

    @Override
    public StepResult run(PlannedStep step, Map<String, Object> driverInfo, Map<String, Object> properties, FakeHardwareRecord hw) {
        String key = step.key();
        if (driverInfo != null && driverInfo.get(FAIL_STEPS) instanceof List<?> failing && failing.contains(key)) {
            return StepResult.failed(NAME + ": simulated failure of step " + key + " (driver_info." + FAIL_STEPS + ")");
        }
        if (key.startsWith("deploy.erase_devices")) {
            List<String> erased = disksToErase(driverInfo, properties);
            hw.erased(key.substring("deploy.".length()), key.equals("deploy.erase_devices"), disks(driverInfo), erased);
            hw.ran(key);
            return StepResult.done(key + " on " + String.join(", ", erased));
        }
        StepResult result = apply(key, step.args(), hw);
        if (result.ok()) {
            hw.ran(key);
        }
        return result;
    }

    private StepResult apply(String key, Map<String, Object> args, FakeHardwareRecord hw) {
        switch (key) {
            case "bios.apply_configuration" -> {
                // Checked when the step runs, as Ironic does: earlier steps stay done, this one fails.
                if (!(args.get("settings") instanceof List<?> settings) || settings.stream().anyMatch(
                        s -> !(s instanceof Map<?, ?> m && m.get("name") instanceof String))) {
                    return StepResult.failed(key + ": args.settings must be a list of {\"name\", \"value\"} objects");
                }
                settings.forEach(s -> hw.biosSet((String) ((Map<?, ?>) s).get("name"), ((Map<?, ?>) s).get("value")));
                return StepResult.done("applied " + settings.size() + " BIOS setting(s)");
            }
            case "bios.factory_reset" -> hw.biosReset();
            case "bios.cache_bios_settings" -> {
                return StepResult.done("cached " + hw.biosSettings().size() + " BIOS setting(s)");
            }
            case "raid.create_configuration" -> {
                Map<String, Object> raid = new LinkedHashMap<>();
                raid.put("create_root_volume", !Boolean.FALSE.equals(args.get("create_root_volume")));
                raid.put("create_nonroot_volumes", !Boolean.FALSE.equals(args.get("create_nonroot_volumes")));
                hw.raid(raid);
            }
            case "raid.delete_configuration" -> hw.raid(null);
            case "management.update_firmware" -> {
                if (!(args.get("firmware_images") instanceof List<?> images) || images.isEmpty() || images.stream().anyMatch(
                        i -> !(i instanceof Map<?, ?> m && m.get("url") instanceof String))) {
                    return StepResult.failed(key + ": args.firmware_images must be a non-empty list of {\"url\", ...} objects");
                }
                images.forEach(i -> hw.firmwareApplied((String) ((Map<?, ?>) i).get("url")));
                return StepResult.done("applied " + images.size() + " firmware image(s)");
            }
            // Ironic's reserved power steps, usable in manual cleaning.
            case "power.power_on" -> {
                return setPower(POWER_ON, hw);
            }
            case "power.power_off" -> {
                return setPower(POWER_OFF, hw);
            }
            case "power.reboot" -> {
                return setPower(REBOOTING, hw);
            }
            case DEPLOY -> {
                Object image = args.get("image_source");
                hw.deployed(image == null ? "unknown" : String.valueOf(image));
                // A deployed node is left running its instance.
                hw.power(POWER_ON, POWER_ON);
            }
            case TEAR_DOWN -> {
                hw.power(POWER_OFF, POWER_OFF);
                hw.tornDown();
            }
            case INSPECT -> hw.inspected(FakeInventory.inventory(args), FakeInventory.pluginData(args));
            case RESCUE -> hw.rescued(true);
            case UNRESCUE -> hw.rescued(false);
            case VERIFY -> {
                // Verification itself is validateDriverInfo; as a step it only confirms the BMC "answers".
            }
            default -> {
                return StepResult.failed(NAME + " has no step " + key);
            }
        }
        return StepResult.done(key);
    }

    @Override
    public StepResult setPower(String target, FakeHardwareRecord hw) {
        switch (target) {
            case POWER_ON, POWER_OFF -> hw.power(target, target);
            case REBOOTING, SOFT_REBOOTING -> hw.power(target, POWER_ON);
            case SOFT_POWER_OFF -> hw.power(target, POWER_OFF);
            default -> {
                return StepResult.failed(NAME + ": unsupported power target \"" + target + "\"");
            }
        }
        return StepResult.done(target);
    }

    /** The node's disks: driver_info.fake_disks, else one {@code sda}. */
    static List<String> disks(Map<String, Object> driverInfo) {
        if (driverInfo != null && driverInfo.get(DISKS) instanceof List<?> l && !l.isEmpty()) {
            return l.stream().map(String::valueOf).toList();
        }
        return DEFAULT_DISKS;
    }

    /** Every disk but those properties.skip_block_devices names (by name, with or without /dev/). */
    static List<String> disksToErase(Map<String, Object> driverInfo, Map<String, Object> properties) {
        List<String> skipped = new ArrayList<>();
        if (properties != null && properties.get(SKIP_BLOCK_DEVICES) instanceof List<?> skip) {
            for (Object entry : skip) {
                if (entry instanceof Map<?, ?> m && m.get("name") instanceof String name) {
                    skipped.add(bare(name));
                }
            }
        }
        return disks(driverInfo).stream().filter(d -> !skipped.contains(bare(d))).toList();
    }

    private static String bare(String device) {
        return device.startsWith("/dev/") ? device.substring("/dev/".length()) : device;
    }

    @SuppressWarnings("unchecked")
    private static <V> Map<String, V> orderedMap(Object... keysAndValues) {
        Map<String, V> map = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            map.put((String) keysAndValues[i], (V) keysAndValues[i + 1]);
        }
        return java.util.Collections.unmodifiableMap(map);
    }

    /** Seconds (may be fractional) as a Duration; null when not a finite non-negative number. */
    private static Duration toDuration(Object value) {
        if (!(value instanceof Number n) || !Double.isFinite(n.doubleValue()) || n.doubleValue() < 0) {
            return null;
        }
        return Duration.ofNanos(Math.round(n.doubleValue() * 1_000_000_000d));
    }
}
