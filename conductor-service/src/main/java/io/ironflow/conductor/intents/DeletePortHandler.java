package io.ironflow.conductor.intents;

import io.ironflow.events.DeletePort;
import io.ironflow.conductor.persistence.NodeEntity;
import io.ironflow.events.NodeIntent;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

/** {@link DeletePort}: removes one of the node's ports, as {@link PortCommands#delete} checks it; 204. */
@ApplicationScoped
class DeletePortHandler implements CommandHandler<DeletePort> {

    private final NodeEdits edits;

    DeletePortHandler(NodeEdits edits) {
        this.edits = edits;
    }

    @Override
    public Class<DeletePort> command() {
        return DeletePort.class;
    }

    @Override
    public Uni<Outcome> apply(NodeIntent intent, DeletePort command, NodeEntity lockedNode) {
        return edits.locked(intent, lockedNode).flatMap(change -> edits.whileReservedAsync(change, node -> PortCommands.delete(node, command), 204));
    }
}
