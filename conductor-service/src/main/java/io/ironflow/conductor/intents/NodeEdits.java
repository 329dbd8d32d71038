package io.ironflow.conductor.intents;

import io.ironflow.conductor.domain.Rejection;
import io.ironflow.conductor.node.Node;
import io.ironflow.conductor.persistence.NodeEntity;
import io.ironflow.conductor.work.NodeChange;
import io.ironflow.conductor.work.ConductorIdentity;
import io.ironflow.events.NodeIntent;
import io.ironflow.policy.IntentRules;
import io.ironflow.policy.Principal;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The steps every command on an existing node shares: work on the node as the access check loaded it FOR UPDATE,
 * take its reservation (Ironic's reserve_node), apply the edit, give the reservation back and announce the
 * change, all in the intent's transaction. A node that does not exist is 404; a node someone holds fails with {@link NodeBusy}.
 */
@ApplicationScoped
class NodeEdits {

    private final ConductorIdentity conductor;

    NodeEdits(ConductorIdentity conductor) {
        this.conductor = conductor;
    }

    String conductor() {
        return conductor.name();
    }

    /**
     * The change this intent makes to {@code node}, the intent's node as this transaction loaded it FOR UPDATE
     * ({@link io.ironflow.conductor.persistence.LockedNode}; null: there is no such node, 404). The row lock
     * serialises this transaction with every other writer of the node (call-backs, periodic tasks, another
     * conductor); the reservation column says whether a longer-running holder has it.
     */
    Uni<NodeChange> locked(NodeIntent intent, NodeEntity node) {
        if (node == null) {
            return Uni.createFrom().failure(Rejection.notFound("Node " + intent.getNodeUuid() + " could not be found."));
        }
        Principal who = IntentRules.fromAvro(intent.getPrincipal());
        boolean ours = who != null && who.isService(); // records what was done: the room kept for it is its to use
        return Uni.createFrom().item(new NodeChange(node, intent.getIntentId(), intent.getRequester(), conductor.name(), !ours));
    }

    /** Takes the node, applies {@code edit}, gives the node back, announces; all in the intent's transaction. */
    Uni<Outcome> whileReserved(NodeChange change, Consumer<NodeEntity> edit, int code) {
        NodeEntity node = change.node();
        return reserve(change).flatMap(x -> {
            edit.accept(node);
            change.aggregate().release();
            change.touched();
            return change.announce();
        }).replaceWith(() -> Outcome.done(code, node));
    }

    /**
     * As {@link #whileReserved}, for an edit that also writes other tables (ports): its checks throw a Rejection
     * before anything is written, and the reservation is taken only once they pass.
     */
    Uni<Outcome> whileReservedAsync(NodeChange change, Function<NodeEntity, Uni<Void>> edit, int code) {
        NodeEntity node = change.node();
        if (change.aggregate().holder() != null) {
            return Uni.createFrom().failure(new NodeBusy(node.uuid.toString(), change.aggregate().holder()));
        }
        return edit.apply(node).flatMap(x -> {
            change.aggregate().release();
            change.touched();
            return change.announce();
        }).replaceWith(() -> Outcome.done(code, node));
    }

    /**
     * Ironic's reserve_node for a node this transaction has loaded FOR UPDATE: nobody else can take it before
     * commit, so a free one is taken in memory (and given back before the transaction ends); a node someone
     * holds is retried by the caller.
     */
    Uni<Void> reserve(NodeChange change) {
        Node node = change.aggregate();
        if (!node.reserve(conductor.name())) {
            return Uni.createFrom().failure(new NodeBusy(node.uuid().toString(), node.holder()));
        }
        return Uni.createFrom().voidItem();
    }
}
