package io.ironflow.conductor.intents;

import io.ironflow.events.AttachVif;
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
    public Uni<Outcome> apply(NodeIntent intent, AttachVif command) {
        return edits.locked(intent).flatMap(change -> edits.whileReservedAsync(change, node -> PortCommands.attachVif(node, command), 204));
    }
}
