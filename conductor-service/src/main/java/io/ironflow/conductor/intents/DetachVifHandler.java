package io.ironflow.conductor.intents;

import io.ironflow.events.DetachVif;
import io.ironflow.conductor.persistence.NodeEntity;
import io.ironflow.events.NodeIntent;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

/** {@link DetachVif}: detaches a VIF from the node's port that has it ({@link PortCommands#detachVif}); 204. */
@ApplicationScoped
class DetachVifHandler implements CommandHandler<DetachVif> {

    private final NodeEdits edits;

    DetachVifHandler(NodeEdits edits) {
        this.edits = edits;
    }

    @Override
    public Class<DetachVif> command() {
        return DetachVif.class;
    }

    @Override
    public Uni<Outcome> apply(NodeIntent intent, DetachVif command, NodeEntity lockedNode) {
        return edits.locked(intent, lockedNode).flatMap(change -> edits.whileReservedAsync(change, node -> PortCommands.detachVif(node, command), 204));
    }
}
