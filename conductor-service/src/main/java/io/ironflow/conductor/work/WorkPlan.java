package io.ironflow.conductor.work;

import io.ironflow.conductor.domain.hardware.PlannedStep;
import io.ironflow.conductor.persistence.NodeEntity;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The running operation's plan, kept in the node's driver_internal_info (as Ironic keeps clean_steps and
 * clean_step_index there), so that whichever conductor holds the node next can continue or fail it.
 */
final class WorkPlan {

    static final String STEPS = "steps";
    static final String STEP_INDEX = "step_index";
    static final String MANUAL_CLEAN = "manual_clean";
    static final String REQUESTED_CLEAN_STEPS = "requested_clean_steps";
    static final String STEP_DUE_AT = "step_due_at";
    static final String ABORT_AFTER = "abort_after";
    static final String HARDWARE = "fake_hardware";

    private WorkPlan() {
    }

    static void start(NodeEntity node, List<PlannedStep> steps) {
        clear(node);
        node.driverInternalInfo.put(STEPS, steps.stream().map(PlannedStep::toJson).toList());
        node.driverInternalInfo.put(STEP_INDEX, 0);
    }

    @SuppressWarnings("unchecked")
    static List<PlannedStep> steps(NodeEntity node) {
        Object steps = node.driverInternalInfo.get(STEPS);
        if (!(steps instanceof List<?> list)) {
            return List.of();
        }
        List<PlannedStep> planned = new ArrayList<>();
        for (Object step : list) {
            planned.add(PlannedStep.fromJson((Map<String, Object>) step));
        }
        return planned;
    }

    static int index(NodeEntity node) {
        return node.driverInternalInfo.get(STEP_INDEX) instanceof Number n ? n.intValue() : 0;
    }

    /** The step that is running or waiting, if any. */
    static PlannedStep current(NodeEntity node) {
        List<PlannedStep> steps = steps(node);
        int index = index(node);
        return index < steps.size() ? steps.get(index) : null;
    }

    static void advance(NodeEntity node) {
        node.driverInternalInfo.put(STEP_INDEX, index(node) + 1);
    }

    static boolean flag(NodeEntity node, String key) {
        return Boolean.TRUE.equals(node.driverInternalInfo.get(key));
    }

    static Long dueAt(NodeEntity node) {
        return node.driverInternalInfo.get(STEP_DUE_AT) instanceof Number n ? n.longValue() : null;
    }

    /** Forgets the operation; what the hardware did stays. */
    static void clear(NodeEntity node) {
        for (String key : List.of(STEPS, STEP_INDEX, MANUAL_CLEAN, REQUESTED_CLEAN_STEPS, STEP_DUE_AT, ABORT_AFTER)) {
            node.driverInternalInfo.remove(key);
        }
        node.cleanStep = null;
    }
}
