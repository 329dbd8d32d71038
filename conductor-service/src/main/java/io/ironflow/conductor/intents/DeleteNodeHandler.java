package io.ironflow.conductor.intents;

import io.ironflow.conductor.domain.ProvisionState;
import io.ironflow.conductor.domain.Rejection;
import io.ironflow.conductor.messaging.Outbox;
import io.ironflow.conductor.persistence.NodeEntity;
import io.ironflow.events.DeleteNode;
import io.ironflow.events.NodeIntent;
import io.ironflow.schemas.Topic;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Set;
import org.hibernate.reactive.common.AffectedEntities;

/**
 * {@link DeleteNode}: deletes a node in maintenance or in one of Ironic's DELETE_ALLOWED_STATES (409 otherwise),
 * announces the deletion and tombstones its snapshot; 204.
 */
@ApplicationScoped
class DeleteNodeHandler implements CommandHandler<DeleteNode> {

    /** Ironic's DELETE_ALLOWED_STATES, with available allowed ([conductor]allow_deleting_available_nodes). */
    private static final Set<ProvisionState> DELETE_ALLOWED = Set.of(ProvisionState.ENROLL, ProvisionState.MANAGEABLE,
            ProvisionState.AVAILABLE, ProvisionState.ADOPT_FAILED);
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
            ProvisionState state = change.state();
            if (!node.maintenance && !DELETE_ALLOWED.contains(state)) {
                throw Rejection.conflict("Can not delete node " + node.uuid + " while it is in provision state \""
                        + state.wire() + "\". Valid provision states to start deletion are " + DELETE_ALLOWED.stream()
                        .map(ProvisionState::wire).sorted().toList() + ", or put the node in maintenance first.");
            }
            // One DELETE of the row this transaction holds locked, not Hibernate's remove(): the flush of an entity
            // removal lost its continuation under concurrent intents and left the transaction open for ever
            // (Hibernate Reactive 3.2 shares one delete coordinator between sessions; docs/architecture.md,
            // "Why DELETE is a statement").
            return edits.reserve(node)
                    .flatMap(x -> Panache.getSession())
                    .flatMap(session -> session.detach(node)
                            .createNativeQuery("DELETE FROM nodes WHERE uuid = ?1", NODES).setParameter(1, node.uuid).executeUpdate())
                    .flatMap(x -> change.announceDeletion())
                    .flatMap(x -> Outbox.tombstone(Topic.NODE_STATE, node.uuid.toString()))
                    .replaceWith(new Outcome(true, 204, null, null, null));
        });
    }
}
