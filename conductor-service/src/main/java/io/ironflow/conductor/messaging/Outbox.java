package io.ironflow.conductor.messaging;

import io.ironflow.conductor.persistence.OutboxEvent;
import io.ironflow.conductor.persistence.SqlStatement;
import io.ironflow.events.AllocationRequest;
import io.ironflow.events.IntentResult;
import io.ironflow.events.NodeEvent;
import io.ironflow.events.NodeSnapshot;
import io.ironflow.schemas.Topic;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Supplier;
import org.apache.avro.specific.SpecificRecordBase;
import org.hibernate.reactive.common.AffectedEntities;

/**
 * Writes records to publish into the outbox table, inside the caller's transaction. The payload is the record
 * exactly as it goes on the topic: framed by the registry's serializer (a magic byte, the schema's id in the
 * registry, the Avro binary), so the relay publishes the bytes as they are, with no decoding and no
 * re-encoding per record. A node event's transition is kept beside it ({@code from|event|to}) for the
 * relay's metrics. An intent's attempt {@link #hold holds} what its command appends and writes it with the
 * intent's answer: a transaction's rows cost one statement, whatever the command wrote.
 */
public final class Outbox {

    /** The topics published from the outbox: how each one's payload is read back, and its CloudEvent type. */
    static final Map<String, Published> TOPICS = Map.of(
            Topic.INTENT_RESULTS.topicName(), new Published(IntentResult::new, IntentResult::fromByteBuffer,
                    "io.ironflow.intent.result"),
            Topic.NODE_STATE.topicName(), new Published(NodeSnapshot::new, NodeSnapshot::fromByteBuffer, "io.ironflow.node.state"),
            Topic.NODE_EVENTS.topicName(), new Published(NodeEvent::new, NodeEvent::fromByteBuffer, "io.ironflow.node.event"),
            Topic.ALLOCATION_REQUESTS.topicName(), new Published(AllocationRequest::new, AllocationRequest::fromByteBuffer,
                    "io.ironflow.allocation.request"));

    /**
     * A topic's record class (an empty instance of it, whose schema {@link RegistryFraming} looks up), how a row written
     * before framing is read back, and the CloudEvent type.
     */
    record Published(Supplier<SpecificRecordBase> empty, Decoder decoder, String eventType) {
    }

    @FunctionalInterface
    interface Decoder {
        SpecificRecordBase decode(ByteBuffer buffer) throws IOException;
    }

    /** What the INSERT touches: only the outbox, so Hibernate need not flush the node before it. */
    private static final AffectedEntities OUTBOX = new AffectedEntities(OutboxEvent.class);
    /** The context-local key of the rows held back by {@link #hold}. */
    private static final Object HELD = new Object();

    private Outbox() {
    }

    /**
     * A record to publish: its topic, its key (the node's uuid), its value (null: a tombstone) and, once
     * {@link #framed}, the bytes published for it (null: framed when written).
     */
    public record Entry(Topic topic, String nodeUuid, SpecificRecordBase value, byte[] payload) {
        public Entry {
            if (!TOPICS.containsKey(topic.topicName())) {
                throw new IllegalArgumentException("the outbox does not publish to " + topic);
            }
        }

        public Entry(Topic topic, String nodeUuid, SpecificRecordBase value) {
            this(topic, nodeUuid, value, null);
        }

        /** This entry with its value framed now, for a caller that needs its size: it is not framed again. */
        public Entry framed() {
            return value == null || payload != null ? this
                    : new Entry(topic, nodeUuid, value, RegistryFraming.frame(topic.topicName(), value));
        }
    }

    /** Adds {@code value} for {@code topic}, keyed by the node's uuid, to the current transaction. */
    public static Uni<Void> append(Topic topic, String nodeUuid, SpecificRecordBase value) {
        return append(List.of(new Entry(topic, nodeUuid, value)));
    }

    /**
     * Adds {@code entries} to the current transaction with one INSERT: PostgreSQL numbers the rows of a VALUES
     * list in order, so they are published in the order given. While this context {@link #hold holds} rows, they
     * are kept back instead, in order, for {@link #appendHeld} to write.
     */
    public static Uni<Void> append(List<Entry> entries) {
        List<Entry> held = Vertx.currentContext() == null ? null : Vertx.currentContext().getLocal(HELD);
        if (held != null) {
            held.addAll(entries);
            return Uni.createFrom().voidItem();
        }
        return insert(null, entries);
    }

    /**
     * From now on, rows appended on this Vert.x context (one intent's attempt, which runs on a context of its
     * own) are held back for {@link #appendHeld}, so that a change and its answer cost one statement; rows held
     * before, by an attempt that failed on this context, are dropped with its rolled-back transaction.
     */
    public static void hold() {
        Vertx.currentContext().putLocal(HELD, new ArrayList<Entry>());
    }

    /** Drops the rows held so far (a refused command's: it changes nothing), still holding. */
    public static void dropHeld() {
        List<Entry> held = Vertx.currentContext().getLocal(HELD);
        if (held != null) {
            held.clear();
        }
    }

    /**
     * Ends the hold and writes, in one statement, {@code prelude} (a data-modifying CTE, or null), the rows held
     * and then {@code entries}.
     */
    public static Uni<Void> appendHeld(Prelude prelude, List<Entry> entries) {
        return insert(prelude, endHold(entries));
    }

    /**
     * As {@link #appendHeld}, for a transaction on the plain client: ends the hold and gives the statement that writes
     * {@code prelude}, the rows held and {@code entries}, for the caller to run.
     */
    public static SqlStatement heldStatement(Prelude prelude, List<Entry> entries) {
        List<Entry> rows = endHold(entries);
        if (rows.isEmpty()) {
            throw new IllegalArgumentException("a statement of the outbox writes rows, and there are none");
        }
        return statement(prelude, rows);
    }

    /** Ends this context's hold: the rows it held, then {@code entries}. */
    private static List<Entry> endHold(List<Entry> entries) {
        List<Entry> rows = new ArrayList<>(entries.size() + 4);
        List<Entry> held = Vertx.currentContext().getLocal(HELD);
        Vertx.currentContext().removeLocal(HELD);
        if (held != null) {
            rows.addAll(held);
        }
        rows.addAll(entries);
        return rows;
    }

    /**
     * A data-modifying common table expression written in the same statement as outbox rows, such as the
     * record of an answered intent: {@code name AS (INSERT ...)} with parameters {@code ?1} to {@code ?n}, into the
     * tables of the entities {@code writes} (several expressions, separated by commas, may write several).
     * PostgreSQL runs each once whether or not the INSERT reads it.
     */
    public record Prelude(String cte, List<Object> parameters, Class<?>... writes) {
    }

    private static Uni<Void> insert(Prelude prelude, List<Entry> entries) {
        if (entries.isEmpty()) {
            if (prelude != null) {
                throw new IllegalArgumentException("a prelude is written with outbox rows, and there are none");
            }
            return Uni.createFrom().voidItem();
        }
        SqlStatement statement = statement(prelude, entries);
        return Panache.getSession().flatMap(session -> {
            var insert = session.createNativeQuery(statement.sql(), prelude == null ? OUTBOX : affected(prelude));
            for (int i = 0; i < statement.parameters().size(); i++) {
                insert.setParameter(i + 1, statement.parameters().get(i));
            }
            return insert.executeUpdate();
        }).replaceWithVoid();
    }

    /** {@code prelude} (or none) and one INSERT of {@code entries}, in one statement. */
    private static SqlStatement statement(Prelude prelude, List<Entry> entries) {
        int first = prelude == null ? 0 : prelude.parameters().size();
        StringBuilder sql = new StringBuilder(prelude == null ? "" : "WITH " + prelude.cte() + " ").append(
                "INSERT INTO outbox (id, aggregatetype, aggregateid, type, payload, traceparent, transition, created_at) VALUES ");
        String traceparent = Traces.currentTraceparent();
        Object[] parameters = new Object[first + entries.size() * 6];
        for (int i = 0; i < first; i++) {
            parameters[i] = prelude.parameters().get(i);
        }
        for (int i = 0; i < entries.size(); i++) {
            Entry entry = entries.get(i);
            int p = first + i * 6;
            sql.append(i == 0 ? "" : ", ").append("(?").append(p + 1).append(", 'node', ?").append(p + 2)
                    .append(", ?").append(p + 3).append(", ?").append(p + 4).append(", ?").append(p + 5)
                    .append(", ?").append(p + 6).append(", now())");
            parameters[p] = UUID.randomUUID();
            parameters[p + 1] = entry.nodeUuid();
            parameters[p + 2] = entry.topic().topicName();
            parameters[p + 3] = entry.framed().payload();
            parameters[p + 4] = traceparent;
            parameters[p + 5] = entry.value() instanceof NodeEvent event ? transition(event) : null;
        }
        return new SqlStatement(sql.toString(), Arrays.asList(parameters));
    }

    /** What a statement with {@code prelude} writes: the outbox and the prelude's tables. */
    private static AffectedEntities affected(Prelude prelude) {
        Class<?>[] entities = Arrays.copyOf(prelude.writes(), prelude.writes().length + 1);
        entities[entities.length - 1] = OutboxEvent.class;
        return new AffectedEntities(entities);
    }

    /** Adds a tombstone (a null value) for the node: on a compacted topic it removes the key. */
    public static Uni<Void> tombstone(Topic topic, String nodeUuid) {
        return append(List.of(new Entry(topic, nodeUuid, null)));
    }

    /** A node event's transition as the relay counts it: {@code from|event|to}, empty for a null state. */
    static String transition(NodeEvent event) {
        return (event.getFromState() == null ? "" : event.getFromState()) + "|" + event.getEvent() + "|"
                + (event.getToState() == null ? "" : event.getToState());
    }
}
