package io.ironflow.conductor.intents;

import io.ironflow.events.AttachVif;
import io.ironflow.conductor.persistence.NodeEntity;
import io.ironflow.events.NodeIntent;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

/** {@link AttachVif}: attaches a VIF to a free port of the node ({@link PortCommands#attachVif}); 204. */
@ApplicationScoped
class AttachVifHandler implements CommandHandler<AttachVif> {

    private final NodeEdits edits;

    AttachVifHandler(NodeEdits edits) {
        this.edits = edits;
    }

    @Override
    public Class<AttachVif> command() {
        return AttachVif.class;
    }

    @Override
    public Uni<Outcome> apply(NodeIntent intent, AttachVif command, NodeEntity lockedNode) {
        return edits.locked(intent, lockedNode).flatMap(change -> edits.whileReservedAsync(change, node -> PortCommands.attachVif(node, command), 204));
    }
}
