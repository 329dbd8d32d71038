package io.ironflow.conductor.messaging;

import io.ironflow.conductor.persistence.OutboxEvent;
import io.ironflow.events.AllocationRequest;
import io.ironflow.events.IntentResult;
import io.ironflow.events.NodeEvent;
import io.ironflow.events.NodeSnapshot;
import io.ironflow.schemas.Topic;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.avro.message.BinaryMessageEncoder;
import org.apache.avro.specific.SpecificRecordBase;
import org.hibernate.reactive.common.AffectedEntities;

/**
 * Writes records to publish into the outbox table, inside the caller's transaction. The payload is Avro's
 * single-object encoding (the schema fingerprint and the binary value); the relay decodes it and publishes
 * it through the registry-aware serializer.
 */
public final class Outbox {

    /** The topics published from the outbox: how each one's payload is read back, and its CloudEvent type. */
    static final Map<String, Published> TOPICS = Map.of(
            Topic.INTENT_RESULTS.topicName(), new Published(IntentResult::fromByteBuffer, "io.ironflow.intent.result"),
            Topic.NODE_STATE.topicName(), new Published(NodeSnapshot::fromByteBuffer, "io.ironflow.node.state"),
            Topic.NODE_EVENTS.topicName(), new Published(NodeEvent::fromByteBuffer, "io.ironflow.node.event"),
            Topic.ALLOCATION_REQUESTS.topicName(), new Published(AllocationRequest::fromByteBuffer,
                    "io.ironflow.allocation.request"));

    record Published(Decoder decoder, String eventType) {
    }

    @FunctionalInterface
    interface Decoder {
        SpecificRecordBase decode(ByteBuffer buffer) throws IOException;
    }

    /**
     * One encoder per record class: building one computes the schema's fingerprint, which cost more than the
     * encoding itself when it was done for every row.
     */
    private static final ClassValue<BinaryMessageEncoder<SpecificRecordBase>> ENCODERS = new ClassValue<>() {
        @Override
        protected BinaryMessageEncoder<SpecificRecordBase> computeValue(Class<?> type) {
            try {
                SpecificRecordBase instance = (SpecificRecordBase) type.getDeclaredConstructor().newInstance();
                return new BinaryMessageEncoder<>(instance.getSpecificData(), instance.getSchema());
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException("cannot build an Avro encoder for " + type, e);
            }
        }
    };

    /** What the INSERT touches: only the outbox, so Hibernate need not flush the node before it. */
    private static final AffectedEntities OUTBOX = new AffectedEntities(OutboxEvent.class);

    private Outbox() {
    }

    /** A record to publish: its topic, its key (the node's uuid) and its value (null: a tombstone). */
    public record Entry(Topic topic, String nodeUuid, SpecificRecordBase value) {
        public Entry {
            if (!TOPICS.containsKey(topic.topicName())) {
                throw new IllegalArgumentException("the outbox does not publish to " + topic);
            }
        }
    }

    /** Adds {@code value} for {@code topic}, keyed by the node's uuid, to the current transaction. */
    public static Uni<Void> append(Topic topic, String nodeUuid, SpecificRecordBase value) {
        return append(List.of(new Entry(topic, nodeUuid, value)));
    }

    /**
     * Adds {@code entries} to the current transaction with one INSERT: PostgreSQL numbers the rows of a VALUES
     * list in order, so they are published in the order given.
     */
    public static Uni<Void> append(List<Entry> entries) {
        if (entries.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        StringBuilder sql = new StringBuilder(
                "INSERT INTO outbox (id, aggregatetype, aggregateid, type, payload, traceparent, created_at) VALUES ");
        String traceparent = Traces.currentTraceparent();
        Object[] parameters = new Object[entries.size() * 5];
        for (int i = 0; i < entries.size(); i++) {
            Entry entry = entries.get(i);
            int p = i * 5;
            sql.append(i == 0 ? "" : ", ").append("(?").append(p + 1).append(", 'node', ?").append(p + 2)
                    .append(", ?").append(p + 3).append(", ?").append(p + 4).append(", ?").append(p + 5).append(", now())");
            parameters[p] = UUID.randomUUID();
            parameters[p + 1] = entry.nodeUuid();
            parameters[p + 2] = entry.topic().topicName();
            parameters[p + 3] = entry.value() == null ? null : encode(entry.value());
            parameters[p + 4] = traceparent;
        }
        return Panache.getSession().flatMap(session -> {
            var insert = session.createNativeQuery(sql.toString(), OUTBOX);
            for (int i = 0; i < parameters.length; i++) {
                insert.setParameter(i + 1, parameters[i]);
            }
            return insert.executeUpdate();
        }).replaceWithVoid();
    }

    /** Adds a tombstone (a null value) for the node: on a compacted topic it removes the key. */
    public static Uni<Void> tombstone(Topic topic, String nodeUuid) {
        return append(List.of(new Entry(topic, nodeUuid, null)));
    }

    private static byte[] encode(SpecificRecordBase value) {
        try {
            ByteBuffer buffer = ENCODERS.get(value.getClass()).encode(value);
            byte[] bytes = new byte[buffer.remaining()];
            buffer.get(bytes);
            return bytes;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
