package io.ironflow.conductor.intents;

import io.ironflow.events.DeletePortgroup;
import io.ironflow.conductor.persistence.NodeEntity;
import io.ironflow.events.NodeIntent;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

/** {@link DeletePortgroup}: removes an empty portgroup of the node ({@link PortgroupCommands#delete}); 204. */
@ApplicationScoped
class DeletePortgroupHandler implements CommandHandler<DeletePortgroup> {

    private final NodeEdits edits;

    DeletePortgroupHandler(NodeEdits edits) {
        this.edits = edits;
    }

    @Override
    public Class<DeletePortgroup> command() {
        return DeletePortgroup.class;
    }

    @Override
    public Uni<Outcome> apply(NodeIntent intent, DeletePortgroup command, NodeEntity lockedNode) {
        return edits.locked(intent, lockedNode).flatMap(change -> edits.whileReservedAsync(change, node -> PortgroupCommands.delete(node, command), 204));
    }
}
