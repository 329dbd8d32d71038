package io.ironflow.conductor.intents;

import io.ironflow.conductor.messaging.Outbox;
import io.ironflow.conductor.persistence.NodeEntity;
import io.ironflow.events.DeleteNode;
import io.ironflow.events.NodeIntent;
import io.ironflow.schemas.Topic;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.hibernate.reactive.common.AffectedEntities;

/**
 * {@link DeleteNode}: deletes a node the aggregate allows to go ({@link io.ironflow.conductor.node.Node#checkDeletable}, 409 otherwise),
 * announces the deletion and tombstones its snapshot; 204.
 */
@ApplicationScoped
class DeleteNodeHandler implements CommandHandler<DeleteNode> {

    private static final AffectedEntities NODES = new AffectedEntities(NodeEntity.class);

    private final NodeEdits edits;

    DeleteNodeHandler(NodeEdits edits) {
        this.edits = edits;
    }

    @Override
    public Class<DeleteNode> command() {
        return DeleteNode.class;
    }

    @Override
    public Uni<Outcome> apply(NodeIntent intent, DeleteNode command, NodeEntity lockedNode) {
        return edits.locked(intent, lockedNode).flatMap(change -> {
            NodeEntity node = change.node();
            change.aggregate().checkDeletable(); // before the reservation: a refusal changes nothing
            // One DELETE of the row this transaction holds locked, not Hibernate's remove(): the flush of an entity
            // removal lost its continuation under concurrent intents and left the transaction open for ever
            // (Hibernate Reactive 3.2 shares one delete coordinator between sessions; docs/architecture.md,
            // "Why DELETE is a statement").
            return edits.reserve(change)
                    .flatMap(x -> Panache.getSession())
                    .flatMap(session -> session.detach(node)
                            .createNativeQuery("DELETE FROM nodes WHERE uuid = ?1", NODES).setParameter(1, node.uuid).executeUpdate())
                    .flatMap(x -> change.announceDeletion())
                    .flatMap(x -> Outbox.tombstone(Topic.NODE_STATE, node.uuid.toString()))
                    .replaceWith(new Outcome(true, 204, null, null, null));
        });
    }
}
