package io.ironflow.conductor.intents;

import io.ironflow.conductor.domain.NodeSettings;
import io.ironflow.conductor.persistence.NodeEntity;
import io.ironflow.events.NodeIntent;
import io.ironflow.events.SetBootMode;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * {@link SetBootMode}: an unknown boot mode is 400 and changes nothing; a known one is set as
 * {@link ManagementSettings#setBootMode} rules; 202.
 */
@ApplicationScoped
class SetBootModeHandler implements CommandHandler<SetBootMode> {

    private final NodeEdits edits;

    SetBootModeHandler(NodeEdits edits) {
        this.edits = edits;
    }

    @Override
    public Class<SetBootMode> command() {
        return SetBootMode.class;
    }

    @Override
    public boolean writesOnlyItsNode() {
        return true;
    }

    @Override
    public Uni<Outcome> apply(NodeIntent intent, SetBootMode command, NodeEntity lockedNode) {
        return edits.locked(intent, lockedNode).flatMap(change -> {
            NodeSettings.requireValidBootMode(command.getTarget());
            return edits.whileReserved(change, node -> ManagementSettings.setBootMode(change.aggregate(), command.getTarget()), 202);
        });
    }
}
