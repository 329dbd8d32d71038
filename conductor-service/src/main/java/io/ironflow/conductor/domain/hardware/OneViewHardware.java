package io.ironflow.conductor.domain.hardware;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Ironic's {@code oneview} hardware type for HPE OneView server hardware, with dynamic allocation: the node's
 * server profile is applied only while Ironflow uses the hardware (deploy, cleaning), by the oneview-allocator
 * (the conductor asks on ironflow.allocation-requests and waits; see {@code OneViewAllocations}). Deploy, boot
 * and the clean steps are fake-hardware's; what this type adds is its driver_info, validated here:
 * {@code server_hardware_uri} (required), {@code dynamic_allocation} (a boolean, default true; false is the
 * deprecated pre-allocation model) and {@code applied_server_profile_uri} (written by the allocator).
 */
public final class OneViewHardware implements HardwareDriver {

    public static final String NAME = "oneview";
    public static final String SERVER_HARDWARE_URI = "server_hardware_uri";
    public static final String DYNAMIC_ALLOCATION = "dynamic_allocation";
    public static final String APPLIED_SERVER_PROFILE_URI = "applied_server_profile_uri";

    private static final Map<String, List<String>> IMPLEMENTATIONS = new LinkedHashMap<>();
    private static final Map<String, String> PROPERTIES = new LinkedHashMap<>();

    static {
        IMPLEMENTATIONS.put("bios", List.of("no-bios"));
        IMPLEMENTATIONS.put("boot", List.of("fake"));
        IMPLEMENTATIONS.put("console", List.of("no-console"));
        IMPLEMENTATIONS.put("deploy", List.of("fake"));
        IMPLEMENTATIONS.put("inspect", List.of("no-inspect"));
        IMPLEMENTATIONS.put("management", List.of("fake"));
        IMPLEMENTATIONS.put("network", List.of("noop"));
        IMPLEMENTATIONS.put("power", List.of("fake"));
        IMPLEMENTATIONS.put("raid", List.of("no-raid"));
        IMPLEMENTATIONS.put("rescue", List.of("fake", "no-rescue"));
        IMPLEMENTATIONS.put("storage", List.of("noop"));
        IMPLEMENTATIONS.put("vendor", List.of("no-vendor"));
        PROPERTIES.put(SERVER_HARDWARE_URI, "The server hardware's URI in OneView, e.g. /rest/server-hardware/<id>. Required.");
        PROPERTIES.put(DYNAMIC_ALLOCATION, "Set to false for the deprecated pre-allocation model (a server profile stays "
                + "applied while the node is enrolled); default true: a profile is applied only for deploy and cleaning.");
        PROPERTIES.put(APPLIED_SERVER_PROFILE_URI, "The server profile Ironflow applied; written by the oneview-allocator.");
    }

    private final FakeHardware fake = new FakeHardware();

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Map<String, List<String>> interfaces() {
        return IMPLEMENTATIONS;
    }

    @Override
    public Map<String, String> properties() {
        return PROPERTIES;
    }

    /** Dynamic allocation unless driver_info says {@code dynamic_allocation: false}. */
    public static boolean dynamicAllocation(Map<String, Object> driverInfo) {
        return driverInfo == null || !Boolean.FALSE.equals(driverInfo.get(DYNAMIC_ALLOCATION));
    }

    @Override
    public List<String> validateDriverInfo(Map<String, Object> driverInfo) {
        Map<String, Object> info = driverInfo == null ? Map.of() : driverInfo;
        List<String> problems = new ArrayList<>();
        if (!(info.get(SERVER_HARDWARE_URI) instanceof String uri) || !uri.startsWith("/rest/server-hardware/")) {
            problems.add(NAME + ": driver_info." + SERVER_HARDWARE_URI + " is required, a URI like /rest/server-hardware/<id>");
        }
        Object dynamic = info.get(DYNAMIC_ALLOCATION);
        if (dynamic != null && !(dynamic instanceof Boolean)) {
            problems.add(NAME + ": driver_info." + DYNAMIC_ALLOCATION + " must be a boolean");
        }
        return problems;
    }

    @Override
    public List<StepDefinition> cleanSteps() {
        return fake.cleanSteps();
    }

    @Override
    public Duration duration(String stepKey, Map<String, Object> driverInfo) {
        return fake.duration(stepKey, driverInfo);
    }

    @Override
    public StepResult run(PlannedStep step, Map<String, Object> driverInfo, FakeHardwareRecord hardware) {
        return fake.run(step, driverInfo, hardware);
    }

    @Override
    public StepResult run(PlannedStep step, Map<String, Object> driverInfo, Map<String, Object> properties,
            FakeHardwareRecord hardware) {
        return fake.run(step, driverInfo, properties, hardware);
    }

    @Override
    public StepResult setPower(String target, FakeHardwareRecord hardware) {
        return fake.setPower(target, hardware);
    }
}
