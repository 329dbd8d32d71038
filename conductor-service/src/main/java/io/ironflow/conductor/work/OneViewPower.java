package io.ironflow.conductor.work;

import io.ironflow.conductor.domain.hardware.Drivers;
import io.ironflow.conductor.domain.hardware.HardwareDriver;
import io.ironflow.conductor.domain.hardware.OneViewHardware;
import io.ironflow.conductor.messaging.Outbox;
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
 */
public final class OneViewPower {

    static final String PENDING = "oneview_power";

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

    /** Asks the allocator (published with this change); the node stays unreserved with its target set. */
    public static void request(NodeChange change, String target, Duration patience) {
        NodeEntity node = change.node();
        String requestId = UUID.randomUUID().toString();
        Instant now = Instant.now();
        Instant deadline = now.plus(patience);
        Map<String, Object> pending = new LinkedHashMap<>();
        pending.put("request_id", requestId);
        pending.put("target", target);
        pending.put("deadline", deadline.toEpochMilli());
        node.driverInternalInfo.put(PENDING, pending);
        node.targetPowerState = endState(target);
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
                .setRequestedAt(now)
                .setDeadline(deadline)
                .build()));
        change.touched();
    }

    /** The allocator's answer for the pending request (the caller claimed the node for exactly that request). */
    static void resume(NodeChange change, AllocationResult result) {
        NodeEntity node = change.node();
        String target = pendingTarget(node);
        node.driverInternalInfo.remove(PENDING);
        node.targetPowerState = null;
        if (result.getSuccess()) {
            node.powerState = endState(target);
        } else {
            node.lastError = failure(node, target, result.getErrorMessage() == null ? "OneView did not say why." : result.getErrorMessage());
        }
        node.reservation = null;
        change.touched();
    }

    /** No answer came by the deadline: the change failed, and the node no longer waits for it. */
    static void expire(NodeChange change) {
        NodeEntity node = change.node();
        String target = pendingTarget(node);
        node.driverInternalInfo.remove(PENDING);
        node.targetPowerState = null;
        node.lastError = failure(node, target, "the oneview-allocator did not answer before the deadline.");
        node.reservation = null;
        change.touched();
    }

    private static String failure(NodeEntity node, String target, String why) {
        return "Failed to change power state to '" + target + "' on node " + node.uuid + ": " + why;
    }

    private static String pendingTarget(NodeEntity node) {
        return node.driverInternalInfo.get(PENDING) instanceof Map<?, ?> pending && pending.get("target") instanceof String t
                ? t : HardwareDriver.POWER_ON;
    }
}
