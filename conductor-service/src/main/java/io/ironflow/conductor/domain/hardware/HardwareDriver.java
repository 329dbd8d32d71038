package io.ironflow.conductor.domain.hardware;

import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * A hardware type (Ironic's {@code driver}): validates a node's driver_info, offers clean steps and runs steps
 * against the node's hardware. Pure: the engine loads and stores the {@link FakeHardwareRecord}, schedules
 * {@link #duration} and moves the state machine.
 */
public interface HardwareDriver {

    /** Non-clean operations the engine runs as steps, built with {@link PlannedStep#operation(String)}. */
    String DEPLOY = "deploy.deploy";
    String TEAR_DOWN = "deploy.tear_down";
    String INSPECT = "inspect.inspect_hardware";
    String RESCUE = "rescue.rescue";
    String UNRESCUE = "rescue.unrescue";
    String VERIFY = "management.verify";

    /** Power targets as on the wire ({@code PUT .../states/power}). */
    String POWER_ON = "power on";
    String POWER_OFF = "power off";
    String REBOOTING = "rebooting";
    String SOFT_POWER_OFF = "soft power off";
    String SOFT_REBOOTING = "soft rebooting";

    String name();

    /**
     * Per interface type ({@link DriverInterfaces#TYPES}), the implementations this driver enables, its default
     * first (Ironic's {@code enabled_<type>_interfaces} and {@code default_<type>_interface}); {@code no-<type>}
     * (or {@code noop}) where the driver has no such interface. None declared: every interface counts as missing.
     */
    default Map<String, List<String>> interfaces() {
        return Map.of();
    }

    /** The driver_info keys this driver reads, each with its description ({@code GET /v1/drivers/{name}/properties}). */
    default Map<String, String> properties() {
        return Map.of();
    }

    /** Problems with {@code driverInfo} (null counts as empty); empty means valid. Run by {@code manage} (verifying). */
    List<String> validateDriverInfo(Map<String, Object> driverInfo);

    /**
     * Problems with who holds the node's hardware now, from facts the node carries (OneView's nodes: in use by a
     * OneView user); empty means none. Validation reports them with driver_info's, on power and management.
     */
    default List<String> validateOwnership(String node, Map<String, Object> driverInfo, Map<String, Object> driverInternalInfo,
            String targetProvisionState) {
        return List.of();
    }

    /** Every clean step this driver offers, in catalogue order. */
    List<StepDefinition> cleanSteps();

    /**
     * Automated cleaning: the steps with priority > 0, highest first. The sort is stable, so ties keep catalogue
     * order (catalogues list interfaces in Ironic's tie-break order).
     */
    default List<PlannedStep> automatedCleanPlan() {
        return cleanSteps(1).stream().map(d -> d.plan(Map.of())).toList();
    }

    /** {@code GET .../cleaning/steps?min_priority=}: steps with priority >= minPriority, highest first. */
    default List<StepDefinition> cleanSteps(int minPriority) {
        return cleanSteps().stream()
                .filter(d -> d.priority() >= minPriority)
                .sorted(Comparator.comparingInt(StepDefinition::priority).reversed())
                .toList();
    }

    /** The simulated time {@code stepKey} takes; {@link Duration#ZERO} means it completes synchronously. */
    Duration duration(String stepKey, Map<String, Object> driverInfo);

    /** Runs one step (clean step or operation) against the node's hardware, recording what it did. */
    StepResult run(PlannedStep step, Map<String, Object> driverInfo, FakeHardwareRecord hardware);

    /**
     * Runs one step knowing the node's properties too (Ironic's agent reads {@code skip_block_devices} there); a
     * driver that needs none of them runs it as {@link #run(PlannedStep, Map, FakeHardwareRecord)}.
     */
    default StepResult run(PlannedStep step, Map<String, Object> driverInfo, Map<String, Object> properties,
            FakeHardwareRecord hardware) {
        return run(step, driverInfo, hardware);
    }

    /** {@link #run(PlannedStep, Map, FakeHardwareRecord)} with no driver_info, so no simulated failures. */
    default StepResult run(PlannedStep step, FakeHardwareRecord hardware) {
        return run(step, Map.of(), hardware);
    }

    /** Sets power to a power target; the reboots (hard and soft) end powered on, soft power off ends off. */
    StepResult setPower(String target, FakeHardwareRecord hardware);
}
