package io.ironflow.conductor.work;

import io.ironflow.conductor.domain.hardware.Drivers;
import io.ironflow.conductor.domain.Operation;
import io.ironflow.conductor.domain.ProvisionState;
import io.ironflow.conductor.persistence.NodeEntity;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/**
 * Ironic's power state sync ({@code _sync_power_states} / {@code do_sync_power_state}) for {@code oneview}
 * nodes, whose power truth is OneView: the oneview-allocator's periodic pass reports the hardware's power
 * (an {@code ObserveServerHardware} intent) and this reconciles the node's power_state with it, under the row
 * lock of that intent. As Ironic, only a node that is not reserved, not in maintenance, not in a transitional
 * state (an -ing or wait state; nor enroll or adopt failed, Ironic's SYNC_EXCLUDED_STATES) and with no power
 * change pending ({@code target_power_state}) is synced.
 * <ul>
 * <li>No power_state recorded yet: OneView's is recorded.</li>
 * <li>A mismatch, with {@code ironflow.conductor.force-power-state-during-sync} true (Ironic's
 * {@code [conductor]force_power_state_during_sync}, default true): the recorded state is pushed to the hardware,
 * a power request to OneView through the allocator ({@link OneViewPower}). With false: the recorded state follows
 * the hardware. Hardware a OneView user holds is never forced (the allocator would refuse it, and the taken-by-
 * OneView check moves the node to maintenance): its recorded state follows the hardware.</li>
 * <li>Consecutive mismatches are counted ({@value #MISMATCHES} in driver_internal_info); past
 * {@code ironflow.conductor.power-state-sync-max-retries} (Ironic's 3) the node takes OneView's state and goes to
 * maintenance with Ironic's message as reason and last_error. A match, or a power change that succeeds, resets
 * the count.</li>
 * </ul>
 * Every correction is a node event from and to the node's state with a detail (node history: {@code monitoring}).
 */
@ApplicationScoped
public class OneViewPowerSync {

    private static final Logger LOG = Logger.getLogger(OneViewPowerSync.class);
    static final String MISMATCHES = "oneview_power_sync_mismatches";

    private final boolean force;
    private final int maxRetries;
    private final Duration patience;

    OneViewPowerSync(
            @ConfigProperty(name = "ironflow.conductor.force-power-state-during-sync", defaultValue = "true") boolean force,
            @ConfigProperty(name = "ironflow.conductor.power-state-sync-max-retries", defaultValue = "3") int maxRetries,
            @ConfigProperty(name = "ironflow.conductor.oneview-power-timeout", defaultValue = "120s") Duration patience) {
        this.force = force;
        this.maxRetries = maxRetries;
        this.patience = patience;
    }

    /** Reconciles power_state with {@code actual}, OneView's power in Ironic's words (null: OneView did not say). */
    public void reconcile(NodeChange change, String actual) {
        NodeEntity node = change.node();
        if (actual == null || !synced(node)) {
            return;
        }
        if (actual.equals(node.powerState)) {
            if (node.driverInternalInfo.remove(MISMATCHES) != null) {
                change.touched();
            }
            return;
        }
        if (node.powerState == null) { // Ironic: no previous known state; record the hardware's
            change.aggregate().powerIs(actual);
            change.touched();
            return;
        }
        String recorded = node.powerState;
        int count = node.driverInternalInfo.get(MISMATCHES) instanceof Number n ? n.intValue() + 1 : 1;
        if (count > maxRetries) {
            String message = "During sync_power_state, max retries exceeded for node " + node.uuid + ", node state "
                    + actual + " does not match expected state '" + recorded + "'. Updating DB state to '" + actual
                    + "' Switching node to maintenance mode.";
            LOG.error(message);
            node.driverInternalInfo.remove(MISMATCHES);
            change.aggregate().powerSyncFailed(actual, message);
            return;
        }
        boolean heldByOneView = !Drivers.get(node.driver).validateOwnership(node.uuid.toString(), node.driverInfo,
                node.driverInternalInfo, null).isEmpty();
        if (force && !heldByOneView) {
            node.driverInternalInfo.put(MISMATCHES, count);
            String detail = "During sync_power_state, node " + node.uuid + " state '" + actual
                    + "' (OneView) does not match expected state. Changing hardware state to '" + recorded
                    + "' (attempt " + count + " of " + maxRetries + ").";
            LOG.warn(detail);
            change.noticed("power sync", detail);
            OneViewPower.request(change, recorded, patience);
            return;
        }
        node.driverInternalInfo.remove(MISMATCHES);
        change.aggregate().powerIs(actual);
        String detail = "During sync_power_state, node " + node.uuid + " state does not match expected state '" + recorded
                + "'. Updating recorded state to '" + actual + "' (OneView" + (heldByOneView ? ", which a OneView user holds" : "")
                + ").";
        LOG.warn(detail);
        change.noticed("power sync", detail);
    }

    /** Ironic's conditions for syncing a node at all. */
    private static boolean synced(NodeEntity node) {
        ProvisionState state = ProvisionState.fromWire(node.provisionState);
        return node.reservation == null && !node.maintenance && node.targetPowerState == null
                && !node.driverInternalInfo.containsKey(OneViewPower.PENDING)
                && Operation.of(state).isEmpty() && state != ProvisionState.ENROLL && state != ProvisionState.ADOPT_FAILED;
    }
}
