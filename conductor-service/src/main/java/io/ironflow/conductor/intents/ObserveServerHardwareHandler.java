package io.ironflow.conductor.intents;

import io.ironflow.conductor.domain.hardware.Drivers;
import io.ironflow.conductor.domain.Rejection;
import io.ironflow.conductor.domain.hardware.OneViewHardware;
import io.ironflow.conductor.persistence.NodeEntity;
import io.ironflow.conductor.work.OneViewPowerSync;
import io.ironflow.events.NodeIntent;
import io.ironflow.events.ObserveServerHardware;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * {@link ObserveServerHardware}: the oneview-allocator's observation of a oneview node's hardware, a fact kept for
 * validation, and the power the node's power_state is synced with ({@link OneViewPowerSync}). It needs no reservation (the row lock orders it with every other writer) so a node at work still
 * learns it; a node of another driver, or an observation of other hardware than the node's, is 400 and changes
 * nothing; 200.
 */
@ApplicationScoped
class ObserveServerHardwareHandler implements CommandHandler<ObserveServerHardware> {

    private final NodeEdits edits;
    private final OneViewPowerSync powerSync;

    ObserveServerHardwareHandler(NodeEdits edits, OneViewPowerSync powerSync) {
        this.edits = edits;
        this.powerSync = powerSync;
    }

    @Override
    public Class<ObserveServerHardware> command() {
        return ObserveServerHardware.class;
    }

    @Override
    public Uni<Outcome> apply(NodeIntent intent, ObserveServerHardware observed, NodeEntity lockedNode) {
        return edits.locked(intent, lockedNode).flatMap(change -> {
            NodeEntity node = change.node();
            if (!Drivers.ONEVIEW.equals(node.driver)
                    || !observed.getServerHardwareUri().equals(node.driverInfo.get(OneViewHardware.SERVER_HARDWARE_URI))) {
                throw Rejection.badRequest("Node " + node.uuid + " is not a oneview node of server hardware "
                        + observed.getServerHardwareUri() + "; the observation was not recorded.");
            }
            OneViewHardware.observe(node.driverInternalInfo, observed.getServerHardwareUri(), observed.getServerProfileUri(),
                    observed.getServerProfileName(), observed.getObservedAt());
            change.touched();
            powerSync.reconcile(change, observed.getPowerState()); // OneView is the power truth of a oneview node
            return change.announce().replaceWith(() -> Outcome.done(200, node));
        });
    }
}
