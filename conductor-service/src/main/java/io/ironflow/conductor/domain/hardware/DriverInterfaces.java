package io.ironflow.conductor.domain.hardware;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Ironic's driver interface types, and what {@code GET /v1/nodes/{id}/validate} makes of a driver's: each
 * interface answers {@code {"result": true}}, {@code {"result": false, "reason": ...}}, or, for an interface the
 * driver does not implement ({@code no-...}), {@code {"result": null, "reason": "not supported"}}.
 */
public final class DriverInterfaces {

    /** Every interface type a driver document lists ({@code default_<type>_interface}), in Ironic's order. */
    public static final List<String> TYPES = List.of("bios", "boot", "console", "deploy", "inspect", "management",
            "network", "power", "raid", "rescue", "storage", "vendor");

    /** The interfaces {@code validate} reports: every type but vendor (Ironic's non_vendor_interfaces). */
    public static final List<String> VALIDATED = TYPES.stream().filter(t -> !t.equals("vendor")).toList();

    private DriverInterfaces() {
    }

    /** The default implementation of {@code type}; null when the driver lists none. */
    public static String defaultOf(HardwareDriver driver, String type) {
        List<String> enabled = driver.interfaces().get(type);
        return enabled == null || enabled.isEmpty() ? null : enabled.get(0);
    }

    /** Whether {@code implementation} is one of Ironic's "this interface is not there" stand-ins (no-bios, ...). */
    public static boolean unsupported(String implementation) {
        return implementation == null || implementation.startsWith("no-");
    }

    /**
     * Ironic's validate document for a node of {@code driver}: power and management check driver_info (what the
     * fake BMC needs); the other fake interfaces need nothing, as Ironic's fake ones (FakeDeploy needs no
     * instance_info either); interfaces the driver lacks are "not supported".
     */
    public static Map<String, Map<String, Object>> validate(HardwareDriver driver, Map<String, Object> driverInfo) {
        return validate(driver, driverInfo, List.of());
    }

    /** As {@link #validate(HardwareDriver, Map)}, with the node's ownership problems on power and management too. */
    public static Map<String, Map<String, Object>> validate(HardwareDriver driver, Map<String, Object> driverInfo,
            List<String> ownershipProblems) {
        List<String> problems = new java.util.ArrayList<>(driver.validateDriverInfo(driverInfo));
        problems.addAll(ownershipProblems);
        Map<String, Map<String, Object>> document = new LinkedHashMap<>();
        for (String type : VALIDATED) {
            Map<String, Object> entry = new LinkedHashMap<>();
            if (unsupported(defaultOf(driver, type))) {
                entry.put("result", null);
                entry.put("reason", "not supported");
            } else if ((type.equals("power") || type.equals("management")) && !problems.isEmpty()) {
                entry.put("result", false);
                entry.put("reason", String.join("; ", problems));
            } else {
                entry.put("result", true);
            }
            document.put(type, entry);
        }
        return document;
    }

    /** The catalogue as stored for the API: {@link StepDefinition#toJson()} of every step, in catalogue order. */
    public static List<Map<String, Object>> cleanStepsJson(HardwareDriver driver) {
        return driver.cleanSteps().stream().map(StepDefinition::toJson).toList();
    }
}
