package io.ironflow.conductor.work;

import io.ironflow.conductor.domain.ProvisionEvent;
import io.ironflow.conductor.domain.hardware.OneViewHardware;
import io.ironflow.conductor.work.ConductorIdentity;
import io.ironflow.conductor.persistence.NodeEntity;
import io.ironflow.events.AllocationAction;
import io.ironflow.events.AllocationResult;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.UUID;

/**
 * Takes the oneview-allocator's answer for a node parked in deploy wait or clean wait on an allocation request:
 * claims the node only if it still waits for exactly that request (a late or repeated answer changes nothing),
 * then goes on with the operation (the profile is recorded in driver_info.applied_server_profile_uri, whatever
 * order the allocator's own intent for it arrives in) or fails it with the allocator's message as last_error
 * (deploy failed / clean failed). A power answer goes to {@link OneViewPower}, for the node that still waits for
 * exactly that power request. A node that still waits for the request but is reserved for a moment (a call-back
 * sweep, an intent) is tried again with a short backoff, so the answer is not dropped; the consumer's deadline
 * bounds the tries.
 */
@ApplicationScoped
public class AllocationResults {

    private final ConductorIdentity conductor;
    private final NodeWork work;

    AllocationResults(ConductorIdentity conductor, NodeWork work) {
        this.conductor = conductor;
        this.work = work;
    }

    /** Applies the result; the item is when the node's next call-back is due (null: none, or not applied). */
    public Uni<Long> apply(AllocationResult result) {
        UUID uuid = UUID.fromString(result.getNodeUuid());
        if (result.getAction() == AllocationAction.POWER) {
            return Panache.withTransaction(() -> Reservations.claimPowerRequest(uuid, conductor.name(), result.getRequestId())
                    .flatMap(claimed -> !claimed ? Uni.createFrom().<Long>nullItem() : NodeEntity.<NodeEntity>findById(uuid)
                            .flatMap(node -> {
                                NodeChange change = new NodeChange(node, null, conductor.name());
                                OneViewPower.resume(change, result, work);
                                return change.announce().replaceWith(WorkPlan.dueAt(node));
                            })));
        }
        return Panache.withTransaction(() -> claim(uuid, result.getRequestId())
                        .flatMap(claimed -> !claimed ? stillWaitsFor(uuid, result.getRequestId()).map(waits -> {
                            if (waits) {
                                throw new NodeReservedForAMoment();
                            }
                            return (Long) null; // late or repeated: changes nothing
                        }) : NodeEntity.<NodeEntity>findById(uuid)
                                .flatMap(node -> {
                                    NodeChange change = new NodeChange(node, null, conductor.name());
                                    resume(change, result);
                                    return change.announce().replaceWith(WorkPlan.dueAt(node));
                                })))
                .onFailure(NodeReservedForAMoment.class).retry()
                .withBackOff(Duration.ofMillis(50), Duration.ofMillis(500)).atMost(15);
    }

    /** The node waits for this request but someone holds its reservation: try again shortly. */
    static final class NodeReservedForAMoment extends RuntimeException {
        NodeReservedForAMoment() {
            super("the node waits for this allocation result but is reserved; trying again", null, false, false);
        }
    }

    private Uni<Boolean> stillWaitsFor(UUID node, String requestId) {
        return Panache.getSession().flatMap(session -> NodeSql.bind(session.createNativeQuery(
                "SELECT 1 FROM nodes WHERE uuid = ?1 AND provision_state IN " + NodeSql.WAIT_STATES
                        + " AND driver_internal_info -> '" + OneViewAllocations.PENDING + "' ->> 'request_id' = ?2"),
                node, requestId).getResultList()).map(rows -> !rows.isEmpty());
    }

    private void resume(NodeChange change, AllocationResult result) {
        NodeEntity node = change.node();
        node.driverInternalInfo.remove(OneViewAllocations.PENDING);
        change.touched();
        if (!result.getSuccess()) {
            if (result.getInUseByOneView()) {
                node.driverInternalInfo.put(OneViewAllocations.ERROR, OneViewAllocations.ALLOCATION_ERROR);
            } else {
                node.driverInternalInfo.remove(OneViewAllocations.ERROR);
            }
            if (result.getAction() == AllocationAction.REMOVE) {
                OneViewAllocations.removalFailed(node);
            }
            work.fail(change, result.getErrorMessage() == null ? "OneView allocation failed." : result.getErrorMessage());
            return;
        }
        if (result.getAction() == AllocationAction.APPLY) {
            node.driverInternalInfo.put(OneViewAllocations.HELD, "applied");
            node.driverInternalInfo.remove(OneViewAllocations.ERROR);
            node.driverInfo.put(OneViewHardware.APPLIED_SERVER_PROFILE_URI, result.getServerProfileUri());
        } else {
            node.driverInternalInfo.put(OneViewAllocations.HELD, "released");
            node.driverInfo.remove(OneViewHardware.APPLIED_SERVER_PROFILE_URI);
        }
        if (result.getPowerState() != null) { // OneView's power as the allocation left it (a removal powers off)
            change.aggregate().powerIs(result.getPowerState());
        }
        // The allocator has just seen the hardware: the fact validation judges follows the profile it applied or removed.
        if (node.driverInfo.get(OneViewHardware.SERVER_HARDWARE_URI) instanceof String hardware) {
            OneViewHardware.observe(node.driverInternalInfo, hardware, result.getServerProfileUri(), null, result.getCompletedAt());
        }
        change.fire(ProvisionEvent.RESUME);
        work.drive(change);
    }

    private Uni<Boolean> claim(UUID node, String requestId) {
        return Panache.getSession().flatMap(session -> NodeSql.bind(session.createNativeQuery(
                "UPDATE nodes SET reservation = ?1 WHERE uuid = ?2 AND reservation IS NULL AND provision_state IN "
                        + NodeSql.WAIT_STATES + " AND driver_internal_info -> '" + OneViewAllocations.PENDING
                        + "' ->> 'request_id' = ?3"), conductor.name(), node, requestId).executeUpdate())
                .map(rows -> rows == 1);
    }
}
