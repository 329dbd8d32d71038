package io.ironflow.conductor.intents;

import io.ironflow.conductor.messaging.Outbox;
import io.ironflow.conductor.persistence.NodeEntity;
import io.ironflow.events.DeleteNode;
import io.ironflow.events.NodeIntent;
import io.ironflow.schemas.Topic;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * {@link DeleteNode}: deletes a node the aggregate allows to go ({@link io.ironflow.conductor.node.Node#checkDeletable}, 409 otherwise),
 * announces the deletion and tombstones its snapshot; 204. The row goes in the answer's statement, as a
 * data-modifying {@code WITH} ({@link IntentProcessor}), so the command itself touches no session: never through
 * Hibernate's {@code remove()}, whose flush lost its continuation under concurrent intents and left the
 * transaction open for ever (Hibernate Reactive 3.2 shares one delete coordinator between sessions;
 * docs/architecture.md, "Why DELETE is a statement").
 */
@ApplicationScoped
class DeleteNodeHandler implements CommandHandler<DeleteNode> {

    private final NodeEdits edits;

    DeleteNodeHandler(NodeEdits edits) {
        this.edits = edits;
    }

    @Override
    public Class<DeleteNode> command() {
        return DeleteNode.class;
    }

    @Override
    public boolean writesOnlyItsNode() {
        return true;
    }

    @Override
    public Uni<Outcome> apply(NodeIntent intent, DeleteNode command, NodeEntity lockedNode) {
        return edits.locked(intent, lockedNode).flatMap(change -> {
            NodeEntity node = change.node();
            change.aggregate().checkDeletable(); // before the reservation: a refusal changes nothing
            return edits.reserve(change)
                    .flatMap(x -> change.announceDeletion())
                    .flatMap(x -> Outbox.tombstone(Topic.NODE_STATE, node.uuid.toString()))
                    .replaceWith(Outcome::deleted);
        });
    }
}
