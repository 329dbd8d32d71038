package io.ironflow.conductor.intents;

import io.ironflow.events.CreatePortgroup;
import io.ironflow.conductor.persistence.NodeEntity;
import io.ironflow.events.NodeIntent;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

/** {@link CreatePortgroup}: adds a portgroup to the node, as {@link PortgroupCommands#create} checks it; 201. */
@ApplicationScoped
class CreatePortgroupHandler implements CommandHandler<CreatePortgroup> {

    private final NodeEdits edits;

    CreatePortgroupHandler(NodeEdits edits) {
        this.edits = edits;
    }

    @Override
    public Class<CreatePortgroup> command() {
        return CreatePortgroup.class;
    }

    @Override
    public Uni<Outcome> apply(NodeIntent intent, CreatePortgroup command, NodeEntity lockedNode) {
        return edits.locked(intent, lockedNode).flatMap(change -> edits.whileReservedAsync(change, node -> PortgroupCommands.create(node, command), 201));
    }
}
