package io.ironflow.conductor.work;

import io.ironflow.conductor.domain.ProvisionEvent;
import io.ironflow.conductor.domain.ProvisionState;
import io.ironflow.conductor.domain.Rejection;
import io.ironflow.conductor.messaging.NodeSnapshots;
import io.ironflow.conductor.node.Node;
import io.ironflow.conductor.node.NodeTransition;
import io.ironflow.conductor.messaging.Outbox;
import io.ironflow.conductor.persistence.NodeEntity;
import io.ironflow.events.NodeEvent;
import io.ironflow.schemas.Topic;
import io.smallrye.mutiny.Uni;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * The changes one transaction makes to one node, written out: the {@link Node} aggregate decides and records them
 * (every state machine transition it fires, in order); this turns its records into the outbox rows that announce
 * them, a node-event per transition and the node's snapshot, with the requests to other services made meanwhile.
 */
public final class NodeChange {

    /**
     * The largest snapshot an intent may leave a node with (its fields, ports and portgroups, as published). The
     * snapshot goes on node-state and, in the intent's answer, on intent-results, and Kafka takes no record over
     * the producer's max.request.size (1 MiB): the other half is room for what the conductor's own work adds
     * (last_error, steps) and what Ironflow's own services record (the OneView profile applied, the teardown's
     * skip list), which is not refused short of {@link #MAX_RECORDED_NODE_BYTES}: it says what was done to the
     * hardware. Past 1 MiB the relay dead-letters the record.
     */
    public static final int MAX_NODE_BYTES = 512 * 1024;

    /**
     * The largest snapshot even Ironflow's own services' intents may leave: past it the node-state record and the
     * answer would not fit a Kafka record (1 MiB, less the answer's other fields and the headers), and would be
     * dead-lettered while the row changed. Their intent is refused instead, and says why.
     */
    public static final int MAX_RECORDED_NODE_BYTES = 960 * 1024;

    private final Node aggregate;
    private final String intentId;
    private final String requester;
    private final String conductor;
    private final boolean sizeLimited;
    private final List<Outbox.Entry> requests = new ArrayList<>();
    private boolean changed;

    /** A change the conductor's own work makes (step completion, timeouts, takeover): no intent, no requester. */
    public NodeChange(NodeEntity node, String intentId, String conductor) {
        this(node, intentId, null, conductor);
    }

    /** A change an intent makes, on behalf of its requester (which node history shows as the event's user). */
    public NodeChange(NodeEntity node, String intentId, String requester, String conductor) {
        this(node, intentId, requester, conductor, intentId != null);
    }

    /**
     * A change an intent makes; {@code sizeLimited} false for an intent of Ironflow's own services, which records
     * what was done and may use the room kept for it, up to {@link #MAX_RECORDED_NODE_BYTES}.
     */
    public NodeChange(NodeEntity node, String intentId, String requester, String conductor, boolean sizeLimited) {
        this.aggregate = new Node(node);
        this.intentId = intentId;
        this.requester = requester;
        this.conductor = conductor;
        this.sizeLimited = sizeLimited;
    }

    /** The node's state holder, for the fields the aggregate does not own. */
    public NodeEntity node() {
        return aggregate.state();
    }

    /** The node's aggregate: the one writer of its life-cycle fields. */
    public Node aggregate() {
        return aggregate;
    }

    public ProvisionState state() {
        return aggregate.provisionState();
    }

    /** Fires {@code event} (see {@link Node#fire}). */
    public ProvisionState fire(ProvisionEvent event) {
        return aggregate.fire(event);
    }

    /** Records something noticed that moves no provision state (see {@link Node#noticed}). */
    public void noticed(String event, String detail) {
        aggregate.noticed(event, detail);
    }

    /** Records the node's enrollment: its first event has no state before it. */
    public void enrolled() {
        aggregate.enrolled();
    }

    private NodeEvent event(NodeTransition transition) {
        return NodeEvent.newBuilder()
                .setEventId(UUID.randomUUID().toString())
                .setNodeUuid(aggregate.uuid().toString())
                .setFromState(transition.from())
                .setEvent(transition.event())
                .setToState(transition.to())
                .setIntentId(intentId)
                .setRequester(requester)
                .setConductor(conductor)
                .setOccurredAt(transition.at())
                .setDetail(transition.detail())
                .build();
    }

    private List<Outbox.Entry> eventRows() {
        String key = aggregate.uuid().toString();
        return aggregate.transitions().stream().map(t -> new Outbox.Entry(Topic.NODE_EVENTS, key, event(t))).toList();
    }

    /**
     * Deletes the node in the aggregate (409 unless Ironic allows it) and announces it: an event with no state
     * after it. Only the event: the caller deletes the row and writes the node-state tombstone.
     */
    public Uni<Void> announceDeletion() {
        aggregate.destroy();
        return Outbox.append(eventRows());
    }

    /** Marks a change that is not a transition (a field, the reservation, the plan). */
    public void touched() {
        changed = true;
    }

    /** Publishes {@code entry} (a request to another service about this node) with the change, after its events. */
    public void publish(Outbox.Entry entry) {
        requests.add(entry);
        changed = true;
    }

    public boolean changed() {
        return changed || !aggregate.transitions().isEmpty();
    }

    /**
     * Bumps the revision and adds the events and the new snapshot to the outbox of the current transaction, and
     * records the snapshot's size on the node. An operator's change that would leave the snapshot larger than
     * {@link #MAX_NODE_BYTES}, and larger than it was, is refused (400); a service's past
     * {@link #MAX_RECORDED_NODE_BYTES}.
     */
    public Uni<Void> announce() {
        if (!changed()) {
            return Uni.createFrom().voidItem();
        }
        aggregate.stamp(conductor);
        String key = aggregate.uuid().toString();
        Outbox.Entry snapshot = new Outbox.Entry(Topic.NODE_STATE, key, NodeSnapshots.of(node())).framed();
        int bytes = snapshot.payload().length;
        int limit = sizeLimited ? MAX_NODE_BYTES : MAX_RECORDED_NODE_BYTES;
        Integer before = node().snapshotBytes;
        // Over the limit (filled by our own services, or by an older release), a change that does not grow the
        // node is taken: an operator brings it back a step at a time.
        if (intentId != null && bytes > limit && (before == null || bytes > before)) {
            throw Rejection.badRequest("Node " + key + " would take " + bytes + " bytes with this change"
                    + (before == null ? "" : " (" + before + " now)") + ", more than the " + limit + " bytes a node"
                    + " may take with its ports and portgroups; nothing was changed. A change that does not make the"
                    + " node larger is taken.");
        }
        node().snapshotBytes = bytes;
        List<Outbox.Entry> rows = new ArrayList<>(eventRows());
        rows.add(snapshot);
        rows.addAll(requests);
        return Outbox.append(rows);
    }
}
