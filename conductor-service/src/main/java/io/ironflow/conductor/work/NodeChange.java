package io.ironflow.conductor.work;

import io.ironflow.conductor.domain.ProvisionEvent;
import io.ironflow.conductor.domain.ProvisionState;
import io.ironflow.conductor.domain.ProvisionStateMachine;
import io.ironflow.conductor.messaging.NodeSnapshots;
import io.ironflow.conductor.messaging.Outbox;
import io.ironflow.conductor.persistence.NodeEntity;
import io.ironflow.events.NodeEvent;
import io.ironflow.schemas.Topic;
import io.smallrye.mutiny.Uni;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * The changes one transaction makes to one node: every state machine transition it fires, in order. Written
 * out, it becomes the outbox rows that announce them: a node-event per transition and the node's snapshot.
 */
public final class NodeChange {

    private final NodeEntity node;
    private final String intentId;
    private final String requester;
    private final String conductor;
    private final List<NodeEvent> events = new ArrayList<>();
    private final List<Outbox.Entry> requests = new ArrayList<>();
    private boolean changed;

    /** A change the conductor's own work makes (step completion, timeouts, takeover): no intent, no requester. */
    public NodeChange(NodeEntity node, String intentId, String conductor) {
        this(node, intentId, null, conductor);
    }

    /** A change an intent makes, on behalf of its requester (which node history shows as the event's user). */
    public NodeChange(NodeEntity node, String intentId, String requester, String conductor) {
        this.node = node;
        this.intentId = intentId;
        this.requester = requester;
        this.conductor = conductor;
    }

    public NodeEntity node() {
        return node;
    }

    public ProvisionState state() {
        return ProvisionState.fromWire(node.provisionState);
    }

    /** Fires {@code event}; the table must allow it, or this is a bug in the conductor, not a refusal. */
    public ProvisionState fire(ProvisionEvent event) {
        ProvisionState from = state();
        ProvisionState to = ProvisionStateMachine.next(from, event).orElseThrow(() -> new IllegalStateException(
                "the state machine has no edge " + from.wire() + " --" + event.wire() + "--> for node " + node.uuid));
        Instant now = now();
        node.provisionState = to.wire();
        node.targetProvisionState = to.targetOnEntry(node.targetProvisionState);
        node.provisionUpdatedAt = now;
        record(from.wire(), event.wire(), to.wire(), now);
        return to;
    }

    /**
     * Records something the conductor noticed that moves no provision state (a power state corrected by the power
     * sync): an event from and to the node's state, with {@code detail} saying what happened.
     */
    public void noticed(String event, String detail) {
        Instant now = now();
        events.add(NodeEvent.newBuilder(event(node.provisionState, event, node.provisionState, now)).setDetail(detail).build());
        changed = true;
    }

    /** Records the node's enrollment: its first event has no state before it. */
    public void enrolled() {
        record(null, "create", node.provisionState, node.createdAt);
    }

    private void record(String from, String event, String to, Instant at) {
        events.add(event(from, event, to, at));
        changed = true;
    }

    private NodeEvent event(String from, String event, String to, Instant at) {
        return NodeEvent.newBuilder()
                .setEventId(UUID.randomUUID().toString())
                .setNodeUuid(node.uuid.toString())
                .setFromState(from)
                .setEvent(event)
                .setToState(to)
                .setIntentId(intentId)
                .setRequester(requester)
                .setConductor(conductor)
                .setOccurredAt(at)
                .build();
    }

    /**
     * Announces the node's deletion: an event with no state after it (node history keeps it, the node's last
     * entry). Only the event: the caller deletes the row and writes the node-state tombstone.
     */
    public Uni<Void> announceDeletion() {
        record(node.provisionState, "destroy", null, now()); // not the FSM's "delete" (undeploy)
        String key = node.uuid.toString();
        return Outbox.append(events.stream().map(event -> new Outbox.Entry(Topic.NODE_EVENTS, key, event)).toList());
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
        return changed;
    }

    /** Bumps the revision and adds the events and the new snapshot to the outbox of the current transaction. */
    public Uni<Void> announce() {
        if (!changed) {
            return Uni.createFrom().voidItem();
        }
        if (!events.isEmpty() && events.get(0).getFromState() == null) {
            node.updatedAt = null; // Ironic: a node never changed since creation has no updated_at
        } else {
            node.revision++;
            node.updatedAt = now();
        }
        node.conductor = conductor;
        String key = node.uuid.toString();
        List<Outbox.Entry> rows = new ArrayList<>(events.size() + 1);
        for (NodeEvent event : events) {
            rows.add(new Outbox.Entry(Topic.NODE_EVENTS, key, event));
        }
        rows.add(new Outbox.Entry(Topic.NODE_STATE, key, NodeSnapshots.of(node)));
        rows.addAll(requests);
        return Outbox.append(rows);
    }

    static Instant now() {
        return Instant.now().truncatedTo(ChronoUnit.MILLIS);
    }
}
