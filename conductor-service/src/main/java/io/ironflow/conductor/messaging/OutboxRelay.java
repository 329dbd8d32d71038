package io.ironflow.conductor.messaging;

import io.ironflow.conductor.persistence.OutboxEvent;
import io.ironflow.events.IntentResult;
import io.ironflow.events.NodeEvent;
import io.ironflow.events.NodeSnapshot;
import io.ironflow.schemas.Topic;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.common.vertx.VertxContext;
import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.MutinyEmitter;
import io.smallrye.reactive.messaging.ce.OutgoingCloudEventMetadata;
import io.smallrye.reactive.messaging.kafka.Record;
import io.smallrye.reactive.messaging.kafka.api.OutgoingKafkaRecordMetadata;
import io.quarkus.vertx.core.runtime.context.VertxContextSafetyToggle;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.avro.specific.SpecificRecordBase;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.jboss.logging.Logger;

/**
 * Publishes the outbox to Kafka in commit order and deletes what the broker acknowledged. It runs when a
 * transaction that wrote to the outbox has committed, and on a timer to pick up whatever a crash left behind.
 * One relay publishes at a time across all conductors (a PostgreSQL advisory lock), which keeps every node's
 * records in order; publishing is at least once, so consumers dedupe on the {@code ce_id} header.
 */
@ApplicationScoped
public class OutboxRelay {

    private static final Logger LOG = Logger.getLogger(OutboxRelay.class);
    private static final long ADVISORY_LOCK = 0x1F10_0B0CL; // any constant shared by every conductor

    private final Map<String, MutinyEmitter<? super SpecificRecordBase>> emitters;
    private final Vertx vertx;
    private final int batchSize;
    private final AtomicBoolean draining = new AtomicBoolean();
    private final AtomicBoolean pending = new AtomicBoolean();

    @Inject
    @SuppressWarnings({"unchecked", "rawtypes"})
    OutboxRelay(@Channel("intent-results") MutinyEmitter<IntentResult> results,
            @Channel("node-state") MutinyEmitter<NodeSnapshot> states,
            @Channel("node-events") MutinyEmitter<NodeEvent> events,
            Vertx vertx,
            @ConfigProperty(name = "ironflow.conductor.outbox.batch-size") int batchSize) {
        this.emitters = Map.of(
                Topic.INTENT_RESULTS.topicName(), (MutinyEmitter) results,
                Topic.NODE_STATE.topicName(), (MutinyEmitter) states,
                Topic.NODE_EVENTS.topicName(), (MutinyEmitter) events);
        this.vertx = vertx;
        this.batchSize = batchSize;
    }

    /** Something was committed to the outbox: publish it now rather than at the next tick. */
    public void wakeUp() {
        pending.set(true);
        if (draining.compareAndSet(false, true)) {
            // Hibernate Reactive needs a Vert.x context of its own for the relay's session.
            Context context = VertxContext.createNewDuplicatedContext(vertx.getOrCreateContext());
            VertxContextSafetyToggle.setContextSafe(context, true);
            context.runOnContext(v -> drain());
        }
    }

    @Scheduled(every = "${ironflow.conductor.outbox.poll-interval}", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void poll() {
        wakeUp();
    }

    private void drain() {
        pending.set(false);
        publishBatch().subscribe().with(published -> {
            if (published == batchSize || pending.get()) {
                drain();
            } else {
                draining.set(false);
                if (pending.get()) { // a wake-up that raced with the end of this drain
                    wakeUp();
                }
            }
        }, failure -> {
            LOG.warnf("publishing the outbox failed, retrying at the next tick: %s", failure.toString());
            draining.set(false);
        });
    }

    /** Publishes up to one batch and returns how many records it published. */
    Uni<Integer> publishBatch() {
        return Panache.withTransaction(() -> Panache.getSession()
                .flatMap(session -> session.createNativeQuery("SELECT pg_try_advisory_xact_lock(" + ADVISORY_LOCK + ")",
                        Boolean.class).getSingleResult())
                .flatMap(locked -> !locked
                        ? Uni.createFrom().item(0)
                        : OutboxEvent.<OutboxEvent>find("ORDER BY seq").page(0, batchSize).list()
                                .flatMap(this::publishAndDelete)));
    }

    private Uni<Integer> publishAndDelete(List<OutboxEvent> rows) {
        if (rows.isEmpty()) {
            return Uni.createFrom().item(0);
        }
        List<Uni<Void>> sends = rows.stream().map(this::send).toList();
        List<Long> seqs = rows.stream().map(row -> row.seq).toList();
        return Uni.join().all(sends).andFailFast()
                .flatMap(acked -> OutboxEvent.delete("seq IN ?1", seqs))
                .map(deleted -> rows.size());
    }

    @SuppressWarnings("unchecked")
    private Uni<Void> send(OutboxEvent row) {
        MutinyEmitter<? super SpecificRecordBase> emitter = emitters.get(row.type);
        if (emitter == null) {
            return Uni.createFrom().failure(new IllegalStateException("no channel publishes to " + row.type));
        }
        // A null payload is a tombstone: the node is gone, and compaction forgets its key.
        Object value = row.payload == null ? Record.of(row.aggregateid, null) : decode(row);
        Message<Object> message = Message.of(value)
                .addMetadata(OutgoingKafkaRecordMetadata.<String>builder().withKey(row.aggregateid).build())
                .addMetadata(OutgoingCloudEventMetadata.builder()
                        .withId(row.id.toString())
                        .withSubject(row.aggregateid)
                        .build());
        return ((MutinyEmitter<Object>) (MutinyEmitter<?>) emitter).sendMessage(message);
    }

    private static SpecificRecordBase decode(OutboxEvent row) {
        try {
            return Outbox.DECODERS.get(row.type).decode(ByteBuffer.wrap(row.payload));
        } catch (IOException e) {
            throw new UncheckedIOException("outbox row " + row.seq + " cannot be decoded", e);
        }
    }
}
