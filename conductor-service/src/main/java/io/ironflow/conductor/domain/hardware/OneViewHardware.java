package io.ironflow.conductor.domain.hardware;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Ironic's {@code oneview} hardware type for HPE OneView server hardware, with dynamic allocation: the node's
 * server profile is applied only while Ironflow uses the hardware (deploy, cleaning), by the oneview-allocator
 * (the conductor asks on ironflow.allocation-requests and waits; see {@code OneViewAllocations}). Deploy, boot
 * and the clean steps are fake-hardware's; what this type adds is its driver_info, validated here:
 * {@code server_hardware_uri} (required), {@code dynamic_allocation} (a boolean, default true; false is the
 * deprecated pre-allocation model) and {@code applied_server_profile_uri} (written by the allocator).
 * <p>
 * Validation refuses a node in use by OneView, as Ironic's OneView power and management {@code validate} did,
 * unless the node's target is manageable (the spec: such nodes are moved to manageable and cleaned). The
 * conductor never calls OneView itself: it judges a fact, {@value #OBSERVED} in driver_internal_info, which the
 * oneview-allocator records through an intent ({@code ObserveServerHardware}) each time its periodic pass sees
 * a different profile on the hardware, and which the conductor updates itself when an allocation applies or
 * removes Ironflow's profile. Why a recorded fact rather than asking the allocator during validation: {@code GET
 * /validate} is a synchronous read that must answer at once and change nothing, and {@code manage} runs with
 * target manageable, where the check is skipped anyway; a fact keeps the conductor free of OneView's latency and
 * failures, at the price of being as fresh as the last observation ({@code periodic-check-interval}). A fact
 * about other hardware than the node's {@value #SERVER_HARDWARE_URI} now is ignored, as is a pre-allocated node.
 */
public final class OneViewHardware implements HardwareDriver {

    public static final String NAME = "oneview";
    public static final String SERVER_HARDWARE_URI = "server_hardware_uri";
    public static final String DYNAMIC_ALLOCATION = "dynamic_allocation";
    public static final String APPLIED_SERVER_PROFILE_URI = "applied_server_profile_uri";
    /** driver_internal_info: what OneView last said of the node's hardware (the allocator's observation). */
    public static final String OBSERVED = "oneview_server_hardware";

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

    /** Records what OneView says of the hardware now: its profile (null: free), that profile's name, and when. */
    public static void observe(Map<String, Object> driverInternalInfo, String serverHardwareUri, String profileUri,
            String profileName, Instant at) {
        Map<String, Object> fact = new LinkedHashMap<>();
        fact.put("server_hardware_uri", serverHardwareUri);
        fact.put("server_profile_uri", profileUri);
        fact.put("server_profile_name", profileName);
        fact.put("observed_at", at.toString());
        driverInternalInfo.put(OBSERVED, fact);
    }

    /** The observed fact if it is about the node's current hardware; null otherwise. */
    private static Map<?, ?> fact(Map<String, Object> driverInfo, Map<String, Object> driverInternalInfo) {
        if (driverInfo == null || driverInternalInfo == null || !(driverInternalInfo.get(OBSERVED) instanceof Map<?, ?> fact)) {
            return null;
        }
        return Objects.equals(fact.get("server_hardware_uri"), driverInfo.get(SERVER_HARDWARE_URI)) ? fact : null;
    }

    /** The profile last seen on the node's hardware; null when none was seen or the fact is about other hardware. */
    public static String observedProfile(Map<String, Object> driverInfo, Map<String, Object> driverInternalInfo) {
        Map<?, ?> fact = fact(driverInfo, driverInternalInfo);
        return fact != null && fact.get("server_profile_uri") instanceof String uri ? uri : null;
    }

    @Override
    public List<String> validateOwnership(String node, Map<String, Object> driverInfo, Map<String, Object> driverInternalInfo,
            String targetProvisionState) {
        if ("manageable".equals(targetProvisionState) || !dynamicAllocation(driverInfo)) {
            return List.of();
        }
        Map<?, ?> fact = fact(driverInfo, driverInternalInfo);
        String profile = fact != null && fact.get("server_profile_uri") instanceof String uri ? uri : null;
        if (profile == null || profile.equals(driverInfo.get(APPLIED_SERVER_PROFILE_URI))) {
            return List.of(); // free, or Ironflow's
        }
        // The profile's name, never its URI: whoever may validate a node may not learn what to copy into
        // applied_server_profile_uri to have another's profile deleted (issue 58).
        Object name = fact.get("server_profile_name");
        return List.of(NAME + ": node " + node + " is in use by OneView: server hardware " + fact.get("server_hardware_uri")
                + " carries " + (name == null ? "a server profile" : "the server profile '" + name + "'")
                + " that is not the node's applied_server_profile_uri (seen by the oneview-allocator at " + fact.get("observed_at") + ")");
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
