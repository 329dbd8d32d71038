package io.ironflow.conductor.messaging;

import io.ironflow.conductor.persistence.OutboxEvent;
import io.ironflow.events.IntentResult;
import io.ironflow.events.NodeEvent;
import io.ironflow.events.NodeSnapshot;
import io.ironflow.schemas.Topic;
import io.smallrye.mutiny.Uni;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;
import org.apache.avro.message.BinaryMessageEncoder;
import org.apache.avro.specific.SpecificRecordBase;

/**
 * Writes records to publish into the outbox table, inside the caller's transaction. The payload is Avro's
 * single-object encoding (the schema fingerprint and the binary value); the relay decodes it and publishes
 * it through the registry-aware serializer.
 */
public final class Outbox {

    /** How each topic's payload is read back; only these topics are published from the outbox. */
    static final Map<String, Decoder> DECODERS = Map.of(
            Topic.INTENT_RESULTS.topicName(), IntentResult::fromByteBuffer,
            Topic.NODE_STATE.topicName(), NodeSnapshot::fromByteBuffer,
            Topic.NODE_EVENTS.topicName(), NodeEvent::fromByteBuffer);

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

    private Outbox() {
    }

    /** Adds {@code value} for {@code topic}, keyed by the node's uuid, to the current transaction. */
    public static Uni<OutboxEvent> append(Topic topic, String nodeUuid, SpecificRecordBase value) {
        if (!DECODERS.containsKey(topic.topicName())) {
            throw new IllegalArgumentException("the outbox does not publish to " + topic);
        }
        return row(topic, nodeUuid, encode(value)).persist();
    }

    /** Adds a tombstone (a null value) for the node: on a compacted topic it removes the key. */
    public static Uni<OutboxEvent> tombstone(Topic topic, String nodeUuid) {
        return row(topic, nodeUuid, null).persist();
    }

    private static OutboxEvent row(Topic topic, String nodeUuid, byte[] payload) {
        OutboxEvent row = new OutboxEvent();
        row.id = UUID.randomUUID();
        row.aggregatetype = "node";
        row.aggregateid = nodeUuid;
        row.type = topic.topicName();
        row.payload = payload;
        row.createdAt = Instant.now();
        return row;
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
