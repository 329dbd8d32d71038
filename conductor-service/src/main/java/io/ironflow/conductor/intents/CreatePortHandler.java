package io.ironflow.conductor.intents;

import io.ironflow.events.CreatePort;
import io.ironflow.conductor.persistence.NodeEntity;
import io.ironflow.events.NodeIntent;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

/** {@link CreatePort}: adds a port to the node, as {@link PortCommands#create} checks it; 201. */
@ApplicationScoped
class CreatePortHandler implements CommandHandler<CreatePort> {

    private final NodeEdits edits;

    CreatePortHandler(NodeEdits edits) {
        this.edits = edits;
    }

    @Override
    public Class<CreatePort> command() {
        return CreatePort.class;
    }

    @Override
    public Uni<Outcome> apply(NodeIntent intent, CreatePort command, NodeEntity lockedNode) {
        return edits.locked(intent, lockedNode).flatMap(change -> edits.whileReservedAsync(change, node -> PortCommands.create(node, command), 201));
    }
}
