package io.ironflow.conductor.intents;

import io.ironflow.events.UpdatePort;
import io.ironflow.conductor.persistence.NodeEntity;
import io.ironflow.events.NodeIntent;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

/** {@link UpdatePort}: patches one of the node's ports, as {@link PortCommands#update} checks it; 200. */
@ApplicationScoped
class UpdatePortHandler implements CommandHandler<UpdatePort> {

    private final NodeEdits edits;

    UpdatePortHandler(NodeEdits edits) {
        this.edits = edits;
    }

    @Override
    public Class<UpdatePort> command() {
        return UpdatePort.class;
    }

    @Override
    public Uni<Outcome> apply(NodeIntent intent, UpdatePort command, NodeEntity lockedNode) {
        return edits.locked(intent, lockedNode).flatMap(change -> edits.whileReservedAsync(change, node -> PortCommands.update(node, command), 200));
    }
}
