package io.ironflow.conductor.intents;

import io.ironflow.conductor.domain.Rejection;
import io.ironflow.conductor.persistence.NodeEntity;
import io.ironflow.events.NodeIntent;
import io.ironflow.policy.HardwareAddresses;
import io.ironflow.policy.IntentRules;
import io.ironflow.policy.NodeOwnership;
import io.ironflow.policy.Policy;
import io.ironflow.policy.Principal;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * What a creation or an update may write into driver_info beyond the field's own rule: the allocator and the BMCs
 * act with the operator's credentials on whatever hardware a node names, so a field that addresses shared
 * hardware ({@link HardwareAddresses#FIELDS}) changes only for {@link HardwareAddresses#RULE}'s holders (403, or
 * 404 to whoever may not see the node); the applied profile only for the allocator's principal (400, Ironic's
 * words for an internal attribute); and a piece of server hardware belongs to one node (409). Judged on what the
 * write changes, so a whole driver_info replaced is judged as a field patched is. The refusals name only the
 * caller's own node and hardware, never the node that holds it.
 */
@ApplicationScoped
class HardwareWrites {

    private final Policy policy;

    HardwareWrites(ConductorPolicy policy) {
        this.policy = policy.policy();
    }

    /** Refuses a creation whose driver_info names hardware its principal may not choose, or the applied profile. */
    void requireMayCreate(NodeIntent intent, Map<String, ?> driverInfo) {
        Principal who = IntentRules.fromAvro(intent.getPrincipal());
        if (who == null) {
            return; // unattributed, and trusted by the operator (IntentAuthorization): as before
        }
        if (driverInfo.containsKey(HardwareAddresses.APPLIED_PROFILE) && !HardwareAddresses.mayRecordAppliedProfile(who)) {
            throw Rejection.badRequest(HardwareAddresses.appliedProfileRefusal());
        }
        if (!HardwareAddresses.named(driverInfo).isEmpty() && !policy.allows(HardwareAddresses.RULE, who, NodeOwnership.NONE)) {
            throw forbidden();
        }
    }

    /** Refuses an update of {@code node}'s driver_info from {@code before} to {@code after} its principal may not make. */
    void requireMayChange(NodeIntent intent, NodeOwnership node, Map<String, ?> before, Map<String, ?> after) {
        Principal who = IntentRules.fromAvro(intent.getPrincipal());
        Set<String> changed = HardwareAddresses.changed(before, after);
        if (who == null || changed.isEmpty()) {
            return;
        }
        if (changed.remove(HardwareAddresses.APPLIED_PROFILE) && !HardwareAddresses.mayRecordAppliedProfile(who)) {
            throw Rejection.badRequest(HardwareAddresses.appliedProfileRefusal());
        }
        if (!changed.isEmpty()) {
            switch (policy.decide(Set.of(HardwareAddresses.RULE), who, node)) {
                case NOT_FOUND -> throw Rejection.notFound("Node " + intent.getNodeUuid() + " could not be found.");
                case FORBIDDEN -> throw forbidden();
                default -> {
                }
            }
        }
    }

    /**
     * Fails with 409 when {@code after} names server hardware that another node than {@code node} has; hardware
     * the node kept is not looked up. The database's unique index settles two writers that both looked first.
     */
    Uni<Void> requireFree(UUID node, Map<String, ?> before, Map<String, ?> after) {
        Object hardware = after.get(HardwareAddresses.SERVER_HARDWARE_URI);
        if (!(hardware instanceof String uri) || uri.equals(before.get(HardwareAddresses.SERVER_HARDWARE_URI))) {
            return Uni.createFrom().voidItem();
        }
        return NodeEntity.hardwareTaken(uri, node).map(taken -> {
            if (taken) {
                throw taken(uri);
            }
            return null;
        });
    }

    /** The 409 for hardware another node has: which node is not said, the caller may not be allowed to see it. */
    static Rejection taken(String serverHardwareUri) {
        return Rejection.conflict("The server hardware " + serverHardwareUri + " belongs to another node; a piece of"
                + " server hardware belongs to one node at most.");
    }

    private static Rejection forbidden() {
        return new Rejection(403, "Access was denied to the following resource: " + HardwareAddresses.RULE);
    }
}
