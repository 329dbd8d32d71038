package io.ironflow.conductor.intents;

import io.ironflow.events.SetSecureBoot;
import io.ironflow.conductor.persistence.NodeEntity;
import io.ironflow.events.NodeIntent;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

/** {@link SetSecureBoot}: turns secure boot on or off, as {@link ManagementSettings#setSecureBoot} rules; 202. */
@ApplicationScoped
class SetSecureBootHandler implements CommandHandler<SetSecureBoot> {

    private final NodeEdits edits;

    SetSecureBootHandler(NodeEdits edits) {
        this.edits = edits;
    }

    @Override
    public Class<SetSecureBoot> command() {
        return SetSecureBoot.class;
    }

    @Override
    public boolean writesOnlyItsNode() {
        return true;
    }

    @Override
    public Uni<Outcome> apply(NodeIntent intent, SetSecureBoot command, NodeEntity lockedNode) {
        return edits.locked(intent, lockedNode).flatMap(change -> edits.whileReserved(change, node -> ManagementSettings.setSecureBoot(change.aggregate(), command.getTarget()), 202));
    }
}
