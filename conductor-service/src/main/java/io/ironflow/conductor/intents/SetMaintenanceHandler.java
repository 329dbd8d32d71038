package io.ironflow.conductor.intents;

import io.ironflow.events.SetMaintenance;
import io.ironflow.conductor.persistence.NodeEntity;
import io.ironflow.events.NodeIntent;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

/** {@link SetMaintenance}: sets or clears maintenance; the reason is kept only while in maintenance; 202. */
@ApplicationScoped
class SetMaintenanceHandler implements CommandHandler<SetMaintenance> {

    private final NodeEdits edits;

    SetMaintenanceHandler(NodeEdits edits) {
        this.edits = edits;
    }

    @Override
    public Class<SetMaintenance> command() {
        return SetMaintenance.class;
    }

    @Override
    public boolean writesOnlyItsNode() {
        return true;
    }

    @Override
    public Uni<Outcome> apply(NodeIntent intent, SetMaintenance command, NodeEntity lockedNode) {
        return edits.locked(intent, lockedNode).flatMap(change -> edits.whileReserved(change,
                node -> change.aggregate().maintenance(command.getMaintenance(), command.getReason()), 202));
    }
}
