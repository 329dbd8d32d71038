package io.ironflow.teardown.actions;

import io.agroal.api.AgroalDataSource;
import io.ironflow.events.TeardownStepEvent;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.reactive.messaging.MutinyEmitter;
import io.smallrye.reactive.messaging.ce.OutgoingCloudEventMetadata;
import io.smallrye.reactive.messaging.kafka.api.OutgoingKafkaRecordMetadata;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.jboss.logging.Logger;

/**
 * Publishes the outbox to {@code ironflow.teardown-events} in the order it was written and deletes the rows the broker
 * acknowledged, in one transaction per batch: a crash between the two publishes the batch again (duplicates, never
 * loss). It runs when a step change was stored ({@link #wakeUp()}) and every {@code outbox.poll-interval}, which
 * picks up what a crash or an unreachable broker left behind; a failed batch is logged and tried again then, and
 * {@code ironflow_teardown_outbox_pending} shows how many events wait. An event the broker can never take (larger
 * than a record may be) is moved to {@code outbox_dead_letters} with the reason instead, so that it cannot hold up
 * every event after it. One relay publishes at a time across
 * orchestrator instances (a transaction-scoped PostgreSQL advisory lock), which keeps each node's events in order.
 */
@ApplicationScoped
public class OutboxRelay {

    private static final URI SOURCE = URI.create("ironflow/teardown-orchestrator");
    private static final String TYPE = "io.ironflow.teardown.step";
    private static final Logger LOG = Logger.getLogger(OutboxRelay.class);
    private static final long ADVISORY_LOCK = 0x7EA2_0B0CL; // any constant shared by every orchestrator
    private static final int BATCH = 100;
    /** A broker that does not acknowledge within this fails the batch; it is tried again at the next tick. */
    private static final Duration SEND_DEADLINE = Duration.ofSeconds(30);

    @Inject
    AgroalDataSource db;

    @Inject
    @Channel("teardown-events")
    MutinyEmitter<TeardownStepEvent> events;

    @Inject
    MeterRegistry metrics;

    @ConfigProperty(name = "ironflow.teardown.outbox.poll-interval", defaultValue = "5s")
    Duration pollInterval;

    private final AtomicLong pending = new AtomicLong();
    private ScheduledExecutorService relay;

    void start(@Observes StartupEvent started) {
        relay = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread thread = new Thread(r, "teardown-outbox");
            thread.setDaemon(true);
            return thread;
        });
        Gauge.builder("ironflow.teardown.outbox.pending", pending, AtomicLong::get)
                .description("Step events stored but not yet published").register(metrics);
        relay.scheduleWithFixedDelay(this::drain, 0, pollInterval.toMillis(), TimeUnit.MILLISECONDS);
    }

    void stop(@Observes ShutdownEvent stopping) {
        relay.shutdownNow();
    }

    /** Something was written to the outbox: publish it now rather than at the next tick. */
    public void wakeUp() {
        if (relay != null && !relay.isShutdown()) {
            relay.execute(this::drain);
        }
    }

    private void drain() {
        try {
            while (publishBatch() == BATCH) {
                // a full batch: there may be more
            }
        } catch (RuntimeException | SQLException e) {
            LOG.warnf("publishing the teardown outbox failed, trying again in %s: %s", pollInterval, e.toString());
        }
    }

    /** Publishes and deletes up to one batch; answers how many it published (0 when another relay holds the lock). */
    int publishBatch() throws SQLException {
        try (Connection c = db.getConnection()) {
            c.setAutoCommit(false);
            try {
                int published = 0;
                if (locked(c)) {
                    List<Long> sent = new ArrayList<>();
                    Map<Long, String> dead = new LinkedHashMap<>();
                    try (PreparedStatement read = c.prepareStatement("SELECT * FROM outbox ORDER BY seq LIMIT " + BATCH);
                            ResultSet rs = read.executeQuery()) {
                        while (rs.next()) {
                            long seq = rs.getLong("seq");
                            try {
                                send(rs.getString("event_key"), event(rs), eventId(rs));
                            } catch (RuntimeException e) {
                                if (!unpublishable(e)) {
                                    throw e;
                                }
                                LOG.errorf("teardown event %d (action %s) can never be published, moved to outbox_dead_letters: %s",
                                        seq, rs.getString("action_id"), e.toString());
                                dead.put(seq, e.toString());
                            }
                            sent.add(seq);
                        }
                    }
                    if (!dead.isEmpty()) {
                        try (PreparedStatement move = c.prepareStatement("INSERT INTO outbox_dead_letters SELECT *, ? FROM outbox"
                                + " WHERE seq = ?")) {
                            for (Map.Entry<Long, String> letter : dead.entrySet()) {
                                move.setString(1, letter.getValue());
                                move.setLong(2, letter.getKey());
                                move.addBatch();
                            }
                            move.executeBatch();
                        }
                    }
                    if (!sent.isEmpty()) {
                        // Exactly the rows sent, not every seq up to the last: a row with a lower seq whose
                        // transaction committed after the SELECT was not read, and must wait for the next batch.
                        try (PreparedStatement delete = c.prepareStatement("DELETE FROM outbox WHERE seq = ANY(?)")) {
                            delete.setArray(1, c.createArrayOf("bigint", sent.toArray()));
                            delete.executeUpdate();
                        }
                    }
                    published = sent.size();
                    try (PreparedStatement count = c.prepareStatement("SELECT count(*) FROM outbox"); ResultSet rs = count.executeQuery()) {
                        rs.next();
                        pending.set(rs.getLong(1));
                    }
                }
                c.commit();
                return published;
            } catch (SQLException | RuntimeException e) {
                c.rollback();
                throw e;
            }
        }
    }

    private static boolean locked(Connection c) throws SQLException {
        try (PreparedStatement lock = c.prepareStatement("SELECT pg_try_advisory_xact_lock(?)")) {
            lock.setLong(1, ADVISORY_LOCK);
            try (ResultSet rs = lock.executeQuery()) {
                rs.next();
                return rs.getBoolean(1);
            }
        }
    }

    /** A failure no retry mends: a record larger than the producer or the broker takes. */
    static boolean unpublishable(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof RecordTooLargeException) {
                return true;
            }
        }
        return false;
    }

    /**
     * Sends the event with a CloudEvent id (binary mode: {@code ce_id} and its siblings as headers) that is the
     * same each time its row is published: the relay publishes at least once (a crash between the broker's
     * acknowledgement and deleting the rows sends them again), and a consumer tells a replay by the id.
     */
    private void send(String key, TeardownStepEvent event, String id) {
        events.sendMessage(Message.of(event)
                        .addMetadata(OutgoingKafkaRecordMetadata.<String>builder().withKey(key).build())
                        .addMetadata(OutgoingCloudEventMetadata.builder().withId(id).withSource(SOURCE).withType(TYPE)
                                .withSubject(key).build()))
                .await().atMost(SEND_DEADLINE);
    }

    /** The row's own id: its publication order and what it says, so a row's every publication carries the same. */
    private static String eventId(ResultSet rs) throws SQLException {
        return UUID.nameUUIDFromBytes((rs.getLong("seq") + "/" + rs.getString("action_id") + "/" + rs.getString("step") + "/"
                + rs.getString("status") + "/" + rs.getTimestamp("occurred_at").toInstant()).getBytes(StandardCharsets.UTF_8)).toString();
    }

    private static TeardownStepEvent event(ResultSet rs) throws SQLException {
        Long revision = rs.getObject("target_revision", Long.class); // null when none was pinned
        return TeardownStepEvent.newBuilder().setActionId(rs.getString("action_id")).setNodeUuid(rs.getString("node_uuid"))
                .setNodeName(rs.getString("node_name")).setStep(rs.getString("step")).setStatus(rs.getString("status"))
                .setMessage(rs.getString("message")).setTargetRevision(revision)
                .setOccurredAt(rs.getTimestamp("occurred_at").toInstant()).build();
    }
}
