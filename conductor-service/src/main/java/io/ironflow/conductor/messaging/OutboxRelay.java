package io.ironflow.conductor.messaging;

import io.ironflow.conductor.metrics.ConductorMetrics;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.reactive.messaging.TracingMetadata;
import io.smallrye.mutiny.CompositeException;
import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.MutinyEmitter;
import io.smallrye.reactive.messaging.ce.OutgoingCloudEventMetadata;
import io.smallrye.reactive.messaging.kafka.Record;
import io.smallrye.reactive.messaging.kafka.api.OutgoingKafkaRecordMetadata;
import io.smallrye.common.vertx.VertxContext;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.mutiny.core.buffer.Buffer;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.avro.specific.SpecificRecordBase;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.jboss.logging.Logger;

/**
 * Publishes the outbox to Kafka in commit order and deletes what the broker acknowledged. It runs when a
 * transaction that wrote to the outbox has committed, and on a timer to pick up whatever a crash left behind.
 * One relay publishes at a time across all conductors (a PostgreSQL advisory lock), which keeps every node's
 * records in order; publishing is at least once, so consumers dedupe on the {@code ce_id} header.
 * <p>
 * The relay works on the plain reactive client, not Hibernate, in two round trips per batch: {@code BEGIN}, the
 * lock and the read together, then, once the broker has acknowledged the batch, the batch's one
 * {@code DELETE} with {@code COMMIT}. A drain is on every answer's path (an intent's answer waits for the next
 * drain to reach the broker), so each wait a drain saves is taken off every request. Its commit is asynchronous
 * ({@code synchronous_commit} off for the relay's transaction alone): a delete lost in a database crash only
 * publishes its rows again, which consumers dedupe, and any later durable commit flushes it first (the WAL is
 * flushed in order). Rows hold the bytes as they go on the topic ({@link Outbox}), so nothing is decoded or
 * encoded here; only rows written by an older conductor (Avro single-object encoding, which starts with 0xC3
 * 0x01) are decoded and framed for the registry first.
 */
@ApplicationScoped
public class OutboxRelay {

    private static final Logger LOG = Logger.getLogger(OutboxRelay.class);
    static final Duration DRAIN_DEADLINE = Duration.ofSeconds(30);
    private static final long ADVISORY_LOCK = 0x1F10_0B0CL; // any constant shared by every conductor

    private final MutinyEmitter<Object> emitter;
    private final Pool pool;
    private final Vertx vertx;
    private final int batchSize;
    private final ConductorMetrics metrics;
    private final long pollIntervalMs;
    private final AtomicBoolean draining = new AtomicBoolean();
    private final AtomicBoolean pending = new AtomicBoolean();

    /** What {@link #publishBatch} yields when another conductor's relay held the lock. */
    static final int NOT_LOCKED = -1;
    private static final long FIRST_LOCK_RETRY_MS = 5;

    @Inject
    OutboxRelay(@Channel("outbox") MutinyEmitter<Object> emitter,
            Pool pool,
            Vertx vertx,
            @ConfigProperty(name = "ironflow.conductor.outbox.batch-size") int batchSize,
            @ConfigProperty(name = "ironflow.conductor.outbox.poll-interval") Duration pollInterval,
            ConductorMetrics metrics) {
        this.emitter = emitter;
        this.pool = pool;
        this.vertx = vertx;
        this.batchSize = batchSize;
        this.pollIntervalMs = pollInterval.toMillis();
        this.metrics = metrics;
    }

    /** Something was committed to the outbox: publish it now rather than at the next tick. */
    public void wakeUp() {
        pending.set(true);
        if (draining.compareAndSet(false, true)) {
            // On a context of its own, not the committing transaction's.
            Context context = VertxContext.createNewDuplicatedContext(vertx.getOrCreateContext());
            context.runOnContext(v -> drain());
        }
    }

    // Like every scheduled task here, not before start-up has wired the channels: the scheduler starts first, and
    // a task that reached the outbox's emitter earlier failed (SRMSG00019), the first heartbeat with it.
    @Scheduled(every = "${ironflow.conductor.outbox.poll-interval}", concurrentExecution = Scheduled.ConcurrentExecution.SKIP,
            skipExecutionIf = Scheduled.ApplicationNotRunning.class)
    void poll() {
        RegistryFraming.lookUpMissing(Outbox.TOPICS); // on a worker thread: only if start-up could not
        wakeUp();
    }

    private void drain() {
        drain(FIRST_LOCK_RETRY_MS);
    }

    /**
     * Publishes batches until the outbox is empty. While another conductor's relay holds the lock, that relay
     * publishes only the rows it read, and rows committed here meanwhile would wait for the next tick: this relay
     * tries again after {@code lockRetryMs}, doubling, and leaves it to the tick once the wait would be as long.
     */
    private void drain(long lockRetryMs) {
        pending.set(false);
        // Bounded: a broker or database that stops answering fails this drain (its transaction is ended by the
        // database's idle-in-transaction timeout) and the next tick tries again; records go out at least once.
        publishBatch().ifNoItem().after(DRAIN_DEADLINE).fail().subscribe().with(published -> {
            if (published == NOT_LOCKED && lockRetryMs < pollIntervalMs) {
                metrics.relayLockBusy();
                vertx.setTimer(lockRetryMs, id -> drain(lockRetryMs * 2));
            } else if (published == batchSize || pending.get()) {
                drain(FIRST_LOCK_RETRY_MS);
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

    /**
     * Takes the relays' lock if it is free, and makes this transaction's commit asynchronous; whether the lock was
     * taken is kept in a transaction-local setting for {@link #READ_BATCH}.
     */
    private static final String TRY_LOCK = "SELECT set_config('ironflow.relay_locked', pg_try_advisory_xact_lock($1)::text, true),"
            + " set_config('synchronous_commit', 'off', true)";

    /**
     * The next batch, if the lock was taken. A statement of its own, after the lock's: a statement reads the rows
     * committed before it began, so a read in the lock's own statement could still see rows that another relay
     * published and deleted between that statement's start and its taking the lock, and publish them again after a
     * node's newer record.
     */
    private static final String READ_BATCH = "SELECT seq, id, aggregateid, type, payload, traceparent, transition, created_at"
            + " FROM outbox WHERE current_setting('ironflow.relay_locked')::boolean ORDER BY seq LIMIT $1";

    /** Publishes up to one batch and returns how many records it published, or {@link #NOT_LOCKED}. */
    Uni<Integer> publishBatch() {
        return pool.withConnection(connection -> {
            // All three sent now, without waiting for an answer: the client pipelines them, PostgreSQL runs them in order.
            var begun = connection.query("BEGIN").execute().subscribeAsCompletionStage();
            var locked = connection.preparedQuery(TRY_LOCK).execute(Tuple.of(ADVISORY_LOCK)).subscribeAsCompletionStage();
            var batch = connection.preparedQuery(READ_BATCH).execute(Tuple.of(batchSize)).subscribeAsCompletionStage();
            return Uni.createFrom().completionStage(begun)
                    .flatMap(x -> Uni.createFrom().completionStage(locked))
                    .flatMap(lock -> Uni.createFrom().completionStage(batch)
                            .flatMap(rows -> publishAndDelete(connection, rows))
                            .map(published -> Boolean.parseBoolean(lock.iterator().next().getString(0)) ? published : NOT_LOCKED))
                    .onFailure().call(failure -> connection.query("ROLLBACK").execute().onFailure().recoverWithNull());
        });
    }

    /**
     * Sends the batch, then deletes it. A row the broker can never take ({@link #unpublishable}) is moved to
     * {@code outbox_dead_letters} with its reason instead: retried, it would fail this batch, and every batch after
     * it, for ever. Any other failure fails the batch, which the next drain sends again.
     */
    private Uni<Integer> publishAndDelete(SqlConnection connection, RowSet<Row> rows) {
        if (rows.size() == 0) {
            return connection.query("COMMIT").execute().replaceWith(0);
        }
        List<Uni<Void>> sends = new ArrayList<>(rows.size());
        Long[] seqs = new Long[rows.size()];
        List<Tuple> dead = Collections.synchronizedList(new ArrayList<>());
        int i = 0;
        for (Row row : rows) {
            long seq = row.getLong("seq");
            String type = row.getString("type");
            seqs[i++] = seq;
            sends.add(Uni.createFrom().deferred(() -> send(row))
                    .onFailure(OutboxRelay::unpublishable).recoverWithItem(failure -> {
                        LOG.errorf("outbox record %d for %s (key %s) can never be published, moved to outbox_dead_letters: %s",
                                seq, type, row.getString("aggregateid"), failure.toString());
                        metrics.outboxDeadLetter(type);
                        dead.add(Tuple.of(seq, failure.toString()));
                        return null;
                    }));
        }
        return Uni.join().all(sends).andFailFast().flatMap(acked -> {
            // Sent together; a statement that fails makes PostgreSQL answer the COMMIT behind it with a rollback.
            List<CompletionStage<?>> ending = new ArrayList<>(3);
            if (!dead.isEmpty()) {
                ending.add(connection.preparedQuery("INSERT INTO outbox_dead_letters (seq, id, aggregateid, type, payload,"
                        + " created_at, reason) SELECT seq, id, aggregateid, type, payload, created_at, $2 FROM outbox"
                        + " WHERE seq = $1").executeBatch(dead).subscribeAsCompletionStage());
            }
            ending.add(connection.preparedQuery("DELETE FROM outbox WHERE seq = ANY($1)").execute(Tuple.of(seqs))
                    .subscribeAsCompletionStage());
            ending.add(connection.query("COMMIT").execute().subscribeAsCompletionStage());
            return Uni.join().all(ending.stream().map(stage -> Uni.createFrom().completionStage(stage)).toList())
                    .andCollectFailures()
                    .onFailure(CompositeException.class).transform(e -> ((CompositeException) e).getCauses().get(0));
        }).map(ended -> seqs.length);
    }

    /**
     * Whether a send failed for good: a record larger than the producer or broker takes, or a row the relay cannot
     * turn into a record (a topic it does not publish, bytes from an older conductor that do not decode).
     */
    static boolean unpublishable(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof RecordTooLargeException || t instanceof Unpublishable) {
                return true;
            }
        }
        return false;
    }

    /** A row that cannot become a record, whatever the broker does. */
    static final class Unpublishable extends RuntimeException {
        Unpublishable(String message, Throwable cause) {
            super(message, cause);
        }
    }

    private Uni<Void> send(Row row) {
        String type = row.getString("type"); // the topic
        String key = row.getString("aggregateid");
        UUID id = row.getUUID("id");
        Buffer payload = row.getBuffer("payload");
        Outbox.Published topic = Outbox.TOPICS.get(type);
        if (topic == null) {
            return Uni.createFrom().failure(new Unpublishable("the outbox does not publish to " + type, null));
        }
        // A null payload is a tombstone: the node is gone, and compaction forgets its key.
        Object value = payload == null ? Record.of(key, null) : framed(type, topic, payload.getBytes(), row.getLong("seq"));
        Message<Object> message = Message.of(value)
                .addMetadata(OutgoingKafkaRecordMetadata.<String>builder().withTopic(type).withKey(key).build())
                .addMetadata(OutgoingCloudEventMetadata.builder()
                        .withId(id.toString())
                        .withType(topic.eventType())
                        .withSubject(key)
                        .build());
        io.opentelemetry.context.Context trace = Traces.parentOf(row.getString("traceparent"));
        if (trace != null) { // published as a child of the span that committed it: one trace per request
            message = message.addMetadata(TracingMetadata.withCurrent(trace));
        }
        String transition = row.getString("transition");
        OffsetDateTime committed = row.getOffsetDateTime("created_at");
        return emitter.sendMessage(message).invoke(() -> {
            if (transition != null) {
                String[] parts = transition.split("\\|", -1);
                metrics.transition(parts[0].isEmpty() ? null : parts[0], parts[1], parts[2].isEmpty() ? null : parts[2]);
                metrics.relayLag(Duration.between(committed.toInstant(), Instant.now()));
            }
        });
    }

    /** The row's payload as it goes on the topic; a row from before framing (see the class comment) framed now. */
    private static byte[] framed(String type, Outbox.Published topic, byte[] payload, long seq) {
        if (payload.length < 2 || payload[0] != (byte) 0xC3 || payload[1] != 0x01) {
            return payload;
        }
        return RegistryFraming.frame(type, decode(topic, payload, seq));
    }

    private static SpecificRecordBase decode(Outbox.Published topic, byte[] payload, long seq) {
        try {
            return topic.decoder().decode(ByteBuffer.wrap(payload));
        } catch (IOException e) {
            throw new Unpublishable("outbox row " + seq + " cannot be decoded", e);
        }
    }
}
