package io.ironflow.conductor.intents;

import io.ironflow.conductor.domain.Traits;
import io.ironflow.events.ChangeTraits;
import io.ironflow.conductor.persistence.NodeEntity;
import io.ironflow.events.NodeIntent;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;

/**
 * {@link ChangeTraits}: sets, adds or removes the node's traits as {@link Traits#apply} rules (an invalid trait is
 * 400 and changes nothing); 200.
 */
@ApplicationScoped
class ChangeTraitsHandler implements CommandHandler<ChangeTraits> {

    private final NodeEdits edits;

    ChangeTraitsHandler(NodeEdits edits) {
        this.edits = edits;
    }

    @Override
    public Class<ChangeTraits> command() {
        return ChangeTraits.class;
    }

    @Override
    public boolean writesOnlyItsNode() {
        return true;
    }

    @Override
    public Uni<Outcome> apply(NodeIntent intent, ChangeTraits command, NodeEntity lockedNode) {
        return edits.locked(intent, lockedNode).flatMap(change -> {
            List<String> after = Traits.apply(change.node().uuid.toString(), List.of(change.node().traits),
                    command.getOperation(), command.getTraits());
            return edits.whileReserved(change, node -> node.traits = after.toArray(String[]::new), 200);
        });
    }
}
