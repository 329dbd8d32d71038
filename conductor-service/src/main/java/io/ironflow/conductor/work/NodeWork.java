package io.ironflow.conductor.work;

import io.ironflow.conductor.domain.hardware.Drivers;
import io.ironflow.conductor.domain.Operation;
import io.ironflow.conductor.domain.ProvisionEvent;
import io.ironflow.conductor.domain.ProvisionState;
import io.ironflow.conductor.domain.ProvisionStateMachine;
import io.ironflow.conductor.domain.hardware.AgentCleanSteps;
import io.ironflow.conductor.domain.hardware.FakeHardwareRecord;
import io.ironflow.conductor.domain.hardware.FakeInventory;
import io.ironflow.conductor.domain.hardware.HardwareDriver;
import io.ironflow.conductor.domain.hardware.ManualClean;
import io.ironflow.conductor.domain.hardware.PlannedStep;
import io.ironflow.conductor.domain.hardware.StepResult;
import io.ironflow.conductor.work.ConductorIdentity;
import io.ironflow.conductor.messaging.OutboxRelay;
import io.ironflow.conductor.persistence.FreshContext;
import io.ironflow.conductor.persistence.NodeEntity;
import io.ironflow.events.AllocationAction;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/**
 * Runs the work behind a node's -ING state while this conductor holds the node's reservation: the driver's
 * steps in plan order, each synchronous one in the same transaction, until the operation ends (success or
 * failure releases the node) or a step takes time (the node is parked in the wait state, unreserved, until the
 * simulated hardware calls back). A crash anywhere leaves the node reserved in its -ING state or parked in its
 * wait state, which restart, takeover and the call-back sweep recover.
 */
@ApplicationScoped
public class NodeWork {

    private static final Logger LOG = Logger.getLogger(NodeWork.class);
    /** A call-back that has not finished by then is given up; the call-back sweep picks the node up again. */
    private static final Duration CALL_BACK_DEADLINE = Duration.ofSeconds(10);

    private final ConductorIdentity conductor;
    private final OutboxRelay relay;
    private final Vertx vertx;
    private final boolean automatedCleanDefault;
    private final Duration waitTimeout;
    private final Duration oneViewPowerTimeout;

    NodeWork(ConductorIdentity conductor, OutboxRelay relay, Vertx vertx,
            @ConfigProperty(name = "ironflow.conductor.automated-clean", defaultValue = "true") boolean automatedClean,
            @ConfigProperty(name = "ironflow.conductor.wait-timeout") Duration waitTimeout,
            @ConfigProperty(name = "ironflow.conductor.oneview-power-timeout", defaultValue = "120s") Duration oneViewPowerTimeout) {
        this.conductor = conductor;
        this.relay = relay;
        this.vertx = vertx;
        this.automatedCleanDefault = automatedClean;
        this.waitTimeout = waitTimeout;
        this.oneViewPowerTimeout = oneViewPowerTimeout;
    }

    /**
     * Prepares the plan for the -ING state a verb has just moved the node into; call in the accepting transaction.
     * Manual clean steps were schema-checked already; whether the driver has them is decided when the work runs.
     */
    public void prepare(NodeChange change, String requestedCleanSteps) {
        NodeEntity node = change.node();
        ProvisionState state = change.state();
        Operation operation = Operation.of(state).orElseThrow();
        OneViewAllocations.reset(node);
        if (operation == Operation.CLEAN_NODE) {
            prepareCleaning(change, requestedCleanSteps);
        } else {
            WorkPlan.start(node, operation.steps().stream().map(key -> PlannedStep.operation(key, arguments(key, node))).toList());
        }
    }

    /** Inspection looks at the machine the node describes now: its properties, ports, boot mode and BMC. */
    @SuppressWarnings("unchecked")
    private static Map<String, Object> arguments(String step, NodeEntity node) {
        if (!step.equals(HardwareDriver.INSPECT)) {
            return Map.of();
        }
        List<Map<String, Object>> ports = node.ports.values().stream().map(p -> (Map<String, Object>) p)
                .sorted(Comparator.comparing((Map<String, Object> p) -> String.valueOf(p.get("created_at")))
                        .thenComparing(p -> String.valueOf(p.get("uuid"))))
                .toList();
        return FakeInventory.facts(node.uuid, node.properties, ports, node.bootMode, node.driverInfo);
    }

    private void prepareCleaning(NodeChange change, String requestedCleanSteps) {
        NodeEntity node = change.node();
        boolean manual = requestedCleanSteps != null;
        HardwareDriver driver = Drivers.get(node.driver);
        OneViewAllocations.reset(node);
        AgentCleanSteps.refresh(driver, node.driverInfo, node.driverInternalInfo); // the agent reports its steps
        boolean automated = node.automatedClean != null ? node.automatedClean : automatedCleanDefault;
        WorkPlan.start(node, manual || !automated ? List.of() : driver.automatedCleanPlan());
        if (manual) {
            node.driverInternalInfo.put(WorkPlan.MANUAL_CLEAN, true);
            node.driverInternalInfo.put(WorkPlan.REQUESTED_CLEAN_STEPS, requestedCleanSteps);
        }
        // Where cleaning will end, so clients polling for the target see it from the start.
        change.aggregate().aimAt(ProvisionStateMachine.next(ProvisionState.CLEANING,
                Operation.CLEAN_NODE.success(manual, node.retired)).orElseThrow());
    }

    /**
     * An abort came while a step that cannot be interrupted runs: mark the plan (and the step, as Ironic's
     * clean_step shows it) so that the abort takes effect once the step is over.
     */
    public void abortAfterStep(NodeEntity node) {
        node.driverInternalInfo.put(WorkPlan.ABORT_AFTER, true);
        if (node.cleanStep != null) {
            node.cleanStep.put(WorkPlan.ABORT_AFTER, true);
        }
    }

    /**
     * An abort has moved the node out of {@code from}: say in last_error what stopped, forget the plan, and give
     * back the OneView profile an aborted cleaning held (Ironic's do_node_clean_abort tears cleaning down).
     */
    public void aborted(NodeChange change, ProvisionState from) {
        NodeEntity node = change.node();
        if (Operation.of(from).orElse(null) == Operation.CLEAN_NODE) {
            OneViewAllocations.giveBack(change, waitTimeout);
        }
        PlannedStep step = node.cleanStep == null ? null : PlannedStep.fromJson(node.cleanStep);
        change.aggregate().recordError("By request, the " + Operation.of(from).orElseThrow().name().toLowerCase().replace("_node", "")
                + " operation was aborted for node " + node.uuid + (step == null ? "." : " on step " + step.key() + "."));
        WorkPlan.clear(node);
    }

    /**
     * Runs the work of the -ING state the verb has just entered, in the accepting transaction: the fake
     * hardware's steps either complete at once or take time, and those park the node in the wait state
     * (unreserved) for a call-back. So a reservation never outlives a transaction, and a crash rolls the verb
     * back whole instead of stranding a reserved node. Returns when the parked node's call-back is due, or null.
     * A driver whose synchronous calls block (a real BMC) would commit the -ING state first and run them after.
     */
    public Long run(NodeChange change) {
        drive(change);
        return WorkPlan.dueAt(change.node());
    }

    /**
     * Advances a reserved node in a working state as far as it can go now. Ends with the node released, either
     * in the operation's end state, a failed state, or parked in the wait state with the call-back time set.
     */
    void drive(NodeChange change) {
        NodeEntity node = change.node();
        HardwareDriver driver = Drivers.get(node.driver);
        while (true) {
            ProvisionState state = change.state();
            Operation operation = Operation.of(state).orElseThrow();
            if (state == ProvisionState.VERIFYING) {
                List<String> problems = new java.util.ArrayList<>(driver.validateDriverInfo(node.driverInfo));
                problems.addAll(driver.validateOwnership(node.uuid.toString(), node.driverInfo, node.driverInternalInfo,
                        node.targetProvisionState));
                if (!problems.isEmpty()) {
                    fail(change, "Failed to validate the driver_info of node " + node.uuid + ": " + String.join("; ", problems));
                    return;
                }
            }
            if (state == ProvisionState.CLEANING && node.driverInternalInfo.containsKey(WorkPlan.REQUESTED_CLEAN_STEPS)) {
                ManualClean.Plan plan = ManualClean.resolve(
                        ManualClean.parse((String) node.driverInternalInfo.get(WorkPlan.REQUESTED_CLEAN_STEPS)), driver);
                if (!plan.ok()) {
                    fail(change, plan.error()); // seed 001: no step runs when any of them is wrong
                    return;
                }
                WorkPlan.start(node, plan.steps());
                node.driverInternalInfo.put(WorkPlan.MANUAL_CLEAN, true);
            }
            if (node.driverInternalInfo.get(OneViewPower.OWED) instanceof String owed && operation.waiting().isPresent()) {
                // A tear-down's power change, owed to the cleaning after it: through OneView, before anything else.
                node.driverInternalInfo.remove(OneViewPower.OWED);
                OneViewPower.duringOperation(change, operation.waiting().get(), owed, oneViewPowerTimeout);
                return;
            }
            if (OneViewAllocations.mustApply(node, state)) { // prepare / prepare_cleaning: a profile first
                OneViewAllocations.request(change, AllocationAction.APPLY, waitTimeout);
                return;
            }
            PlannedStep step = WorkPlan.current(node);
            if (step == null) {
                node.cleanStep = null; // the steps are over (an abort during the removal is not one after a step)
                if (OneViewAllocations.mustRemove(node, state)) { // tear_down_cleaning: give the hardware back
                    OneViewAllocations.request(change, AllocationAction.REMOVE, waitTimeout);
                    return;
                }
                ProvisionState next = finish(change, operation);
                if (next == ProvisionState.CLEANING) { // tear-down done: clean before reuse
                    prepareCleaning(change, null);
                    continue;
                }
                return;
            }
            if (state == ProvisionState.CLEANING) {
                node.cleanStep = step.toJson();
            }
            Duration takes = driver.duration(step.key(), node.driverInfo);
            if (!takes.isZero() && operation.waiting().isPresent()) {
                node.driverInternalInfo.put(WorkPlan.STEP_DUE_AT, System.currentTimeMillis() + takes.toMillis());
                change.aggregate().release(); // wait states hold no reservation
                change.fire(ProvisionEvent.WAIT);
                return;
            }
            if (!runStep(change, driver, step)) {
                return;
            }
        }
    }

    /**
     * Runs one step on the hardware; false when the node is not to be driven further now: the step failed (and
     * failed the node), or it changed the power of a node whose power is OneView's, which now waits for OneView.
     */
    private boolean runStep(NodeChange change, HardwareDriver driver, PlannedStep step) {
        NodeEntity node = change.node();
        FakeHardwareRecord hardware = FakeHardwareRecord.fromDriverInternalInfo(node.driverInternalInfo);
        int powerChanges = hardware.powerHistory().size();
        StepResult result = driver.run(step, node.driverInfo, node.properties, hardware);
        node.driverInternalInfo.put(FakeHardwareRecord.KEY, hardware.toJson());
        List<String> targets = hardware.powerHistory();
        String powerTarget = targets.size() > powerChanges ? targets.get(targets.size() - 1) : null;
        boolean oneView = OneViewPower.applies(node);
        if (!oneView && hardware.powerState() != null) {
            change.aggregate().powerIs(hardware.powerState());
        }
        change.touched();
        if (result instanceof StepResult.Failed failed) {
            fail(change, "Step " + step.key() + " failed on node " + node.uuid + ": " + failed.error());
            return false;
        }
        WorkPlan.advance(node);
        if (oneView && powerTarget != null) { // the power is OneView's: ask it, as Ironic's OneView power interface
            Operation operation = Operation.of(change.state()).orElseThrow();
            if (operation.waiting().isEmpty()) {
                node.driverInternalInfo.put(OneViewPower.OWED, powerTarget);
                return true;
            }
            OneViewPower.duringOperation(change, operation.waiting().get(), powerTarget, oneViewPowerTimeout);
            return false;
        }
        return true;
    }

    private ProvisionState finish(NodeChange change, Operation operation) {
        NodeEntity node = change.node();
        boolean manual = WorkPlan.flag(node, WorkPlan.MANUAL_CLEAN);
        WorkPlan.clear(node);
        if (operation == Operation.TEAR_DOWN) {
            change.aggregate().instanceTornDown();
        }
        ProvisionState next = change.fire(operation.success(manual, node.retired));
        if (next != ProvisionState.CLEANING) {
            change.aggregate().release();
        }
        return next;
    }

    /**
     * Ends the operation in its failed state with {@code error} as last_error, and releases the node. A failed
     * cleaning does what Ironic's cleaning_error_handler does: it gives back the OneView profile it held
     * (tear_down_cleaning), and a failure while a clean step ran puts the node in maintenance with the fault
     * "clean failure" (the operator looks before anything runs on it again).
     */
    void fail(NodeChange change, String error) {
        NodeEntity node = change.node();
        if (Operation.of(change.state()).orElse(null) == Operation.CLEAN_NODE) {
            OneViewAllocations.giveBack(change, waitTimeout);
            if (node.cleanStep != null) {
                change.aggregate().faulted("clean failure", error);
            }
        }
        if (Operation.of(change.state()).orElse(null) == Operation.TEAR_DOWN) {
            change.aggregate().instanceTornDown();
        }
        WorkPlan.clear(node);
        node.driverInternalInfo.remove(OneViewPower.OWED);
        change.aggregate().fail(error);
    }

    /**
     * The simulated hardware finished the step a parked node waits on (a ramdisk's call-back, in Ironic): take
     * the node if it still waits for exactly that and nobody holds it, run the step, and carry on.
     */
    public Uni<Long> callBack(UUID uuid) {
        return Panache.withTransaction(() -> Reservations.claimWaiting(uuid, conductor.name())
                .flatMap(claimed -> !claimed ? Uni.createFrom().<Long>nullItem() : NodeEntity.<NodeEntity>findById(uuid)
                        .flatMap(node -> {
                            NodeChange change = new NodeChange(node, null, conductor.name());
                            resume(change);
                            return change.announce().replaceWith(WorkPlan.dueAt(node));
                        })));
    }

    private void resume(NodeChange change) {
        NodeEntity node = change.node();
        HardwareDriver driver = Drivers.get(node.driver);
        node.driverInternalInfo.remove(WorkPlan.STEP_DUE_AT);
        PlannedStep step = WorkPlan.current(node);
        if (step != null && !runStep(change, driver, step)) {
            return;
        }
        carryOn(change, step);
    }

    /** What a parked node waited for is done (a step, OneView's power change): the operation goes on. */
    void carryOn(NodeChange change) {
        carryOn(change, null);
    }

    private void carryOn(NodeChange change, PlannedStep step) {
        NodeEntity node = change.node();
        Operation operation = Operation.of(change.state()).orElseThrow();
        if (WorkPlan.flag(node, WorkPlan.ABORT_AFTER)) {
            // An abort asked for during a step that could not be interrupted takes effect now it is over.
            String error = "By request, the clean operation was aborted for node " + node.uuid + " after step "
                    + (step == null ? "?" : step.key()) + " finished.";
            change.fire(operation.resume());
            node.cleanStep = null; // the step is over: an abort is no failure of the node (no maintenance, no fault)
            fail(change, error);
            return;
        }
        ProvisionEvent resume = operation.resume();
        if (resume == ProvisionEvent.RESUME) {
            change.fire(resume);
            drive(change);
        } else {
            WorkPlan.clear(node);
            change.aggregate().release();
            change.fire(resume);
        }
    }

    /** Schedules the call-back of a node parked until {@code dueAt} (epoch millis) on this conductor. */
    public void scheduleCallBack(UUID node, Long dueAt) {
        if (dueAt == null) {
            return;
        }
        long delay = Math.max(1, dueAt - System.currentTimeMillis());
        vertx.setTimer(delay, id -> FreshContext.run(vertx, () -> callBack(node).ifNoItem().after(CALL_BACK_DEADLINE).fail())
                .whenComplete((next, failure) -> {
                    if (failure != null) {
                        LOG.warnf("call-back of node %s failed; the call-back sweep retries it: %s", node, failure.toString());
                        return;
                    }
                    relay.wakeUp();
                    scheduleCallBack(node, next);
                }));
    }
}
