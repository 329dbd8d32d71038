package io.ironflow.conductor.work;

import io.ironflow.conductor.domain.Operation;
import io.ironflow.conductor.domain.ProvisionEvent;
import io.ironflow.conductor.domain.ProvisionState;
import io.ironflow.conductor.domain.Rejection;
import io.ironflow.conductor.domain.hardware.Drivers;
import io.ironflow.conductor.domain.hardware.HardwareDriver;
import io.ironflow.conductor.domain.hardware.OneViewHardware;
import io.ironflow.conductor.messaging.Outbox;
import io.ironflow.conductor.node.Node;
import io.ironflow.conductor.persistence.NodeEntity;
import io.ironflow.events.AllocationAction;
import io.ironflow.events.AllocationPurpose;
import io.ironflow.events.AllocationRequest;
import io.ironflow.events.AllocationResult;
import io.ironflow.schemas.Topic;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;

/**
 * Power of {@code oneview} nodes comes from OneView, through the oneview-allocator (Ironic's OneView power
 * interface): a power change asks the allocator ({@code POWER} on ironflow.allocation-requests, with a deadline)
 * and answers 202 at once with {@code target_power_state} set and the node unreserved; driver_internal_info keeps
 * the pending request ({@value #PENDING}). The allocator's answer (see {@link AllocationResults}) sets
 * {@code power_state}, or fails the change with OneView's message in {@code last_error}, as Ironic words power
 * failures; a request unanswered by its deadline fails the same way ({@link ConductorDuties}). A newer power
 * request replaces a pending one: the older answer then changes nothing.
 * <p>
 * The power changes an operation makes (deploy ends powered on, tear-down powers off, the power clean steps) go
 * the same way for these nodes ({@link #duringOperation}): the node waits for the answer in the operation's wait
 * state (deploy wait, clean wait), the answer resumes the operation, and a failure or the deadline fails it
 * (deploy failed, clean failed) with OneView's message. An operation with no wait state (tear-down) owes its power
 * change ({@value #OWED}) to the next one that has one (the cleaning that always follows it), which asks first.
 */
public final class OneViewPower {

    static final String PENDING = "oneview_power";
    static final String OWED = "oneview_power_owed";

    private OneViewPower() {
    }

    /** Whether this node's power goes through OneView. */
    public static boolean applies(NodeEntity node) {
        return Drivers.ONEVIEW.equals(node.driver);
    }

    /** The power state a target ends in (the reboots end powered on, soft power off ends off). */
    static String endState(String target) {
        return switch (target) {
            case HardwareDriver.POWER_OFF, HardwareDriver.SOFT_POWER_OFF -> HardwareDriver.POWER_OFF;
            default -> HardwareDriver.POWER_ON;
        };
    }

    /**
     * Asks the allocator (published with this change); the node stays unreserved with its target set. Refused
     * (409, nothing changed) while an operation waits for OneView's power change: replacing that request would
     * leave the operation waiting for an answer that no longer comes.
     */
    public static void request(NodeChange change, String target, Duration patience) {
        if (waitingOperation(change)) {
            throw Rejection.conflict("Node " + change.node().uuid + " is waiting for OneView to change its power state to '"
                    + pendingTarget(change.node()) + "' for its " + change.state().wire() + "; try again when it is done.");
        }
        send(change, target, patience, false);
    }

    /**
     * An operation's power change: asks the allocator and parks the node, unreserved, in the operation's wait
     * state until the answer ({@link #resume}) or the deadline ({@link #expire}).
     */
    static void duringOperation(NodeChange change, ProvisionState waitState, String target, Duration patience) {
        send(change, target, patience, true);
        change.aggregate().release(); // wait states hold no reservation
        if (change.state() != waitState) {
            change.fire(ProvisionEvent.WAIT);
        }
    }

    private static void send(NodeChange change, String target, Duration patience, boolean operation) {
        NodeEntity node = change.node();
        String requestId = UUID.randomUUID().toString();
        Instant now = Instant.now();
        Instant deadline = now.plus(patience);
        Map<String, Object> pending = new LinkedHashMap<>();
        pending.put("request_id", requestId);
        pending.put("target", target);
        pending.put("deadline", deadline.toEpochMilli());
        if (operation) {
            pending.put("operation", true);
        }
        node.driverInternalInfo.put(PENDING, pending);
        change.aggregate().powerRequested(endState(target));
        Object hardware = node.driverInfo.get(OneViewHardware.SERVER_HARDWARE_URI);
        Object applied = node.driverInfo.get(OneViewHardware.APPLIED_SERVER_PROFILE_URI);
        change.publish(new Outbox.Entry(Topic.ALLOCATION_REQUESTS, node.uuid.toString(), AllocationRequest.newBuilder()
                .setRequestId(requestId)
                .setNodeUuid(node.uuid.toString())
                .setAction(AllocationAction.POWER)
                .setPurpose(AllocationPurpose.POWER)
                .setServerHardwareUri(hardware instanceof String s ? s : null)
                .setAppliedServerProfileUri(applied instanceof String s ? s : null)
                .setPowerTarget(target)
                .setPreAllocated(!OneViewHardware.dynamicAllocation(node.driverInfo))
                .setRequestedAt(now)
                .setDeadline(deadline)
                .build()));
        change.touched();
    }

    /**
     * The allocator's answer for the pending request (the caller claimed the node for exactly that request); an
     * operation waiting for it goes on, or fails with OneView's message.
     */
    static void resume(NodeChange change, AllocationResult result, NodeWork work) {
        NodeEntity node = change.node();
        String target = pendingTarget(node);
        boolean operation = waitingOperation(change);
        Node aggregate = change.aggregate();
        node.driverInternalInfo.remove(PENDING);
        change.touched();
        if (result.getSuccess()) {
            aggregate.powerChanged(endState(target));
            node.driverInternalInfo.remove(OneViewPowerSync.MISMATCHES); // the hardware is where the record says
            if (operation) {
                work.carryOn(change);
                return;
            }
        } else {
            String error = failure(node, target, result.getErrorMessage() == null ? "OneView did not say why." : result.getErrorMessage());
            if (operation) {
                if (result.getInUseByOneView()) { // for the allocator's clean-failed check, as an allocation's
                    node.driverInternalInfo.put(OneViewAllocations.ERROR, OneViewAllocations.ALLOCATION_ERROR);
                }
                aggregate.powerChangeEnded();
                work.fail(change, error);
                return;
            }
            aggregate.powerChangeFailed(error);
        }
        aggregate.release();
    }

    /** No answer came by the deadline: the change failed (and the operation waiting for it), the node no longer waits. */
    static void expire(NodeChange change, NodeWork work) {
        NodeEntity node = change.node();
        String target = pendingTarget(node);
        boolean operation = waitingOperation(change);
        node.driverInternalInfo.remove(PENDING);
        change.touched();
        String error = failure(node, target, "the oneview-allocator did not answer before the deadline.");
        if (operation) {
            change.aggregate().powerChangeEnded();
            work.fail(change, error);
            return;
        }
        change.aggregate().powerChangeFailed(error);
        change.aggregate().release();
    }

    /** The pending request is an operation's, and the node still waits for it in that operation's wait state. */
    private static boolean waitingOperation(NodeChange change) {
        ProvisionState state = change.state();
        return change.node().driverInternalInfo.get(PENDING) instanceof Map<?, ?> pending && Boolean.TRUE.equals(pending.get("operation"))
                && Operation.of(state).flatMap(Operation::waiting).filter(state::equals).isPresent();
    }

    private static String failure(NodeEntity node, String target, String why) {
        return "Failed to change power state to '" + target + "' on node " + node.uuid + ": " + why;
    }

    private static String pendingTarget(NodeEntity node) {
        return node.driverInternalInfo.get(PENDING) instanceof Map<?, ?> pending && pending.get("target") instanceof String t
                ? t : HardwareDriver.POWER_ON;
    }
}
