package io.ironflow.conductor.intents;

import io.ironflow.events.UpdatePortgroup;
import io.ironflow.conductor.persistence.NodeEntity;
import io.ironflow.events.NodeIntent;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

/** {@link UpdatePortgroup}: patches one of the node's portgroups ({@link PortgroupCommands#update}); 200. */
@ApplicationScoped
class UpdatePortgroupHandler implements CommandHandler<UpdatePortgroup> {

    private final NodeEdits edits;

    UpdatePortgroupHandler(NodeEdits edits) {
        this.edits = edits;
    }

    @Override
    public Class<UpdatePortgroup> command() {
        return UpdatePortgroup.class;
    }

    @Override
    public Uni<Outcome> apply(NodeIntent intent, UpdatePortgroup command, NodeEntity lockedNode) {
        return edits.locked(intent, lockedNode).flatMap(change -> edits.whileReservedAsync(change, node -> PortgroupCommands.update(node, command), 200));
    }
}
