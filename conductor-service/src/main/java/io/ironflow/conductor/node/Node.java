package io.ironflow.conductor.node;

import io.ironflow.conductor.domain.ProvisionEvent;
import io.ironflow.conductor.domain.ProvisionState;
import io.ironflow.conductor.domain.ProvisionStateMachine;
import io.ironflow.conductor.domain.Rejection;
import io.ironflow.conductor.persistence.NodeEntity;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;

/**
 * The node aggregate: the one writer of a node's life-cycle fields (provision and target state, their timestamp,
 * last_error, reservation, maintenance, retired, power state and target, revision) and the keeper of the rules
 * about them. Every provision state change goes through {@link ProvisionStateMachine} ({@link #fire}); each change
 * is recorded as a {@link NodeTransition}, in order, which the caller turns into node events and outbox rows.
 *
 * <p>The aggregate wraps the {@link NodeEntity} it is loaded from as its state holder (so that Hibernate flushes
 * what it writes) and reads, never writes, the entity's other fields; it has no messaging or transaction code.
 * It lives beside {@code domain}, not in it, because {@code persistence} depends on {@code domain}.
 */
public final class Node {

    /** Ironic's DELETE_ALLOWED_STATES, with available allowed ([conductor]allow_deleting_available_nodes). */
    static final Set<ProvisionState> DELETE_ALLOWED = Set.of(ProvisionState.ENROLL, ProvisionState.MANAGEABLE,
            ProvisionState.AVAILABLE, ProvisionState.ADOPT_FAILED);

    private final NodeEntity state;
    private final List<NodeTransition> transitions = new ArrayList<>();

    public Node(NodeEntity state) {
        this.state = state;
    }

    /** The state holder, for reading the fields this aggregate does not own (driver info, plan, properties...). */
    public NodeEntity state() {
        return state;
    }

    public UUID uuid() {
        return state.uuid;
    }

    public ProvisionState provisionState() {
        return ProvisionState.fromWire(state.provisionState);
    }

    /** What this aggregate recorded so far, oldest first. */
    public List<NodeTransition> transitions() {
        return List.copyOf(transitions);
    }

    // ---- provision state -------------------------------------------------------------------------------------

    /** Fires {@code event}; the table must allow it, or this is a bug in the conductor, not a refusal. */
    public ProvisionState fire(ProvisionEvent event) {
        ProvisionState from = provisionState();
        ProvisionState to = ProvisionStateMachine.next(from, event).orElseThrow(() -> new IllegalStateException(
                "the state machine has no edge " + from.wire() + " --" + event.wire() + "--> for node " + state.uuid));
        Instant now = now();
        state.provisionState = to.wire();
        state.targetProvisionState = to.targetOnEntry(state.targetProvisionState);
        state.provisionUpdatedAt = now;
        record(from.wire(), event.wire(), to.wire(), now, null);
        return to;
    }

    /**
     * Fires a verb an operator asked for: {@code target}, when given, is where the verb is meant to end (Ironic's
     * target_provision_state for the API's verbs); without it, the state entered decides.
     */
    public ProvisionState fire(ProvisionEvent event, ProvisionState target) {
        ProvisionState entered = fire(event);
        state.targetProvisionState = target == null ? entered.targetOnEntry(null) : target.wire();
        return entered;
    }

    /** Says where the running operation will end, so that clients polling for the target see it from the start. */
    public void aimAt(ProvisionState target) {
        state.targetProvisionState = target.wire();
    }

    /** Ends the running operation in its failed state with {@code error} as last_error, and releases the node. */
    public ProvisionState fail(String error) {
        state.lastError = error;
        release();
        return fire(ProvisionEvent.FAIL);
    }

    /** Records the node's enrollment: its first event has no state before it. */
    public void enrolled() {
        record(null, "create", state.provisionState, state.createdAt, null);
    }

    /**
     * Records something noticed that moves no provision state (a power state corrected by the power sync), with
     * {@code detail} saying what happened.
     */
    public void noticed(String event, String detail) {
        record(state.provisionState, event, state.provisionState, now(), detail);
    }

    // ---- last error ------------------------------------------------------------------------------------------

    /** A new operation starts: Ironic clears the previous error. */
    public void clearError() {
        state.lastError = null;
    }

    /** An operation failed without moving the provision state (a power change, a setting the hardware refused). */
    public void recordError(String error) {
        state.lastError = error;
    }

    // ---- reservation -----------------------------------------------------------------------------------------

    /** Who holds the node (Ironic's reservation), or null. */
    public String holder() {
        return state.reservation;
    }

    /**
     * Ironic's reserve_node on a node the caller's transaction has locked: takes a free node for {@code conductor}
     * and says so; a node someone holds is left alone (false).
     */
    public boolean reserve(String conductor) {
        if (state.reservation != null) {
            return false;
        }
        state.reservation = conductor;
        return true;
    }

    /** Gives the node back (the work is done, or it waits: wait states hold no reservation). */
    public void release() {
        state.reservation = null;
    }

    // ---- maintenance -----------------------------------------------------------------------------------------

    /** Sets or clears maintenance; the reason is kept only while in maintenance. */
    public void maintenance(boolean on, String reason) {
        if (on) {
            enterMaintenance(reason);
        } else {
            leaveMaintenance();
        }
    }

    public void enterMaintenance(String reason) {
        state.maintenance = true;
        state.maintenanceReason = reason;
    }

    /** Leaves maintenance; the fault that put the node there goes with it (Ironic's update_node). */
    public void leaveMaintenance() {
        state.maintenance = false;
        state.maintenanceReason = null;
        state.fault = null;
    }

    /**
     * The conductor puts the node in maintenance itself because of {@code fault} (Ironic's faults: "clean failure",
     * "power failure"); a reason the operator gave already is kept, as Ironic keeps it.
     */
    public void faulted(String fault, String reason) {
        state.maintenance = true;
        state.fault = fault;
        if (state.maintenanceReason == null) {
            state.maintenanceReason = reason;
        }
    }

    // ---- retirement ------------------------------------------------------------------------------------------

    /**
     * Ironic's rule for an update that sets {@code retired}: a node not yet retired cannot be retired while
     * available (it would be handed out again); refused 409, nothing changed.
     */
    public void checkRetiring(boolean retired) {
        if (retired && !state.retired && provisionState() == ProvisionState.AVAILABLE) {
            throw Rejection.conflict("The node " + state.uuid + " can not be retired in provision state available;"
                    + " move it to manageable first.");
        }
    }

    /**
     * Retires the node with {@code reason} (a retired node keeps retired and takes the new reason); refused as
     * {@link #checkRetiring} refuses, so no caller can skip the rule.
     */
    public void retire(String reason) {
        checkRetiring(true);
        state.retired = true;
        state.retiredReason = reason;
    }

    /** Takes the node out of retirement: the reason goes with it. */
    public void unretire() {
        state.retired = false;
        state.retiredReason = null;
    }

    // ---- power -----------------------------------------------------------------------------------------------

    public String powerState() {
        return state.powerState;
    }

    /** The hardware's power state as it now is (a step ran, an allocation, the power sync observed it). */
    public void powerIs(String actual) {
        state.powerState = actual;
    }

    /** A power change was asked of someone who answers later: {@code endState} is where it will leave the node. */
    public void powerRequested(String endState) {
        state.targetPowerState = endState;
    }

    /** A power change succeeded: the node's power is {@code actual}, and no change is pending. */
    public void powerChanged(String actual) {
        state.targetPowerState = null;
        state.powerState = actual;
    }

    /** A power change failed with {@code error} (last_error); the power state is unchanged, no change pending. */
    public void powerChangeFailed(String error) {
        state.targetPowerState = null;
        state.lastError = error;
    }

    /** A power change ended, its outcome recorded elsewhere (an operation carries on or fails). */
    public void powerChangeEnded() {
        state.targetPowerState = null;
    }

    /**
     * Ironic's sync_power_state gave up: the hardware's {@code actual} state is recorded and the node goes into
     * maintenance with {@code message} as its last error and reason, noticed as "power sync failed".
     */
    public void powerSyncFailed(String actual, String message) {
        state.powerState = actual;
        state.lastError = message;
        enterMaintenance(message);
        state.fault = "power failure";
        noticed("power sync failed", message);
    }

    // ---- the instance ------------------------------------------------------------------------------------------

    /**
     * A deploy or rebuild was given a config drive: Ironic's _store_configdrive without an object store keeps it in
     * instance_info.configdrive (the gzipped base64 text or URL, or the JSON object to build one from) for the
     * deploy to write.
     */
    public void storeConfigDrive(Object configDrive) {
        state.instanceInfo = new java.util.HashMap<>(state.instanceInfo);
        state.instanceInfo.put("configdrive", configDrive);
    }

    /** A tear-down ended, done or failed: Ironic clears the instance's fields in its finally, whatever happened. */
    public void instanceTornDown() {
        state.instanceInfo = new java.util.HashMap<>();
        state.instanceUuid = null;
    }

    // ---- deletion --------------------------------------------------------------------------------------------

    /**
     * Records the node's deletion (an event with no state after it: history keeps it as the node's last entry)
     * when Ironic allows it: in maintenance, or in one of DELETE_ALLOWED_STATES; 409 otherwise, nothing changed.
     * Not the FSM's "delete" (undeploy); the caller deletes the row.
     */
    public void destroy() {
        checkDeletable();
        record(state.provisionState, "destroy", null, now(), null);
    }

    /** Ironic's rule for deleting a node; 409 naming the states that allow it. */
    public void checkDeletable() {
        ProvisionState current = provisionState();
        if (!state.maintenance && !DELETE_ALLOWED.contains(current)) {
            throw Rejection.conflict("Can not delete node " + state.uuid + " while it is in provision state \""
                    + current.wire() + "\". Valid provision states to start deletion are " + DELETE_ALLOWED.stream()
                    .map(ProvisionState::wire).sorted().toList() + ", or put the node in maintenance first.");
        }
    }

    // ---- revision ----------------------------------------------------------------------------------------------

    /**
     * Stamps a change about to be announced: a new revision and updated_at, and the conductor that made it; a node
     * never changed since its creation has no updated_at (Ironic).
     */
    public void stamp(String conductor) {
        if (!transitions.isEmpty() && transitions.get(0).from() == null) {
            state.updatedAt = null;
        } else {
            state.revision++;
            state.updatedAt = now();
        }
        state.conductor = conductor;
    }

    private void record(String from, String event, String to, Instant at, String detail) {
        transitions.add(new NodeTransition(from, event, to, at, detail));
    }

    /** Now, to the millisecond (what PostgreSQL keeps of a timestamp). */
    public static Instant now() {
        return Instant.now().truncatedTo(ChronoUnit.MILLIS);
    }
}
