package io.ironflow.conductor.messaging;

import io.ironflow.conductor.domain.HistoryEntry;
import io.ironflow.events.NodeEvent;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Objects;
import java.util.UUID;
import java.util.function.Function;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.jboss.logging.Logger;

/**
 * Builds node history (Ironic API 1.78) from ironflow.node-events: every transition becomes one
 * {@code node_history} row with its intent and requester, in one consumer group shared by all conductors. Each
 * poll's batch of events is one INSERT (one statement, no transaction around it), in the batch's order, so a
 * node's rows keep its events' order; a redelivered event is a no-op (its event id is unique), so publishing at
 * least once is enough. Rows are never deleted with their node: history outlives it, as the events do.
 * <p>
 * A batch that cannot be written is tried again, backing off, each attempt with a deadline, for
 * {@code ironflow.conductor.history-retry-for}; then the channel fails, liveness goes DOWN and the conductor is
 * restarted ({@link LivenessWatchdog}), resuming from the last committed offset, so no event is skipped. A record
 * that is not a decodable NodeEvent, or whose ids are not UUIDs, is logged and skipped, and a NUL in its text
 * (which PostgreSQL refuses) is written as U+FFFD: history is a projection, never a reason to stop the conductor.
 */
@ApplicationScoped
public class NodeHistoryProjector {

    private static final Logger LOG = Logger.getLogger(NodeHistoryProjector.class);
    // One statement whatever the batch's size (a prepared statement per size would fill the statement cache).
    private static final String INSERT = "INSERT INTO node_history (event_id, node_uuid, created_at, severity, "
            + "event_type, event, conductor, requester, intent_id, from_state, to_state, transition) "
            + "SELECT event_id, node_uuid, created_at, severity, event_type, event, conductor, requester, intent_id, "
            + "from_state, to_state, transition FROM unnest($1::uuid[], $2::uuid[], $3::timestamptz[], $4::text[], "
            + "$5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::text[], $11::text[], $12::text[]) "
            + "WITH ORDINALITY AS batch (event_id, node_uuid, created_at, severity, event_type, event, conductor, "
            + "requester, intent_id, from_state, to_state, transition, position) "
            + "ORDER BY position ON CONFLICT (event_id) DO NOTHING";
    private static final Duration ATTEMPT_DEADLINE = Duration.ofSeconds(10);
    /** The text columns after the first three, in the INSERT's order. */
    private static final List<Function<Row, String>> TEXT_COLUMNS = List.of(
            row -> row.entry().severity(), row -> row.entry().eventType(), row -> row.entry().event(),
            row -> row.event().getConductor(), row -> row.event().getRequester(), row -> row.event().getIntentId(),
            row -> row.event().getFromState(), row -> row.event().getToState(), row -> row.event().getEvent());

    private final Pool pool;
    private final Duration retryFor;

    NodeHistoryProjector(Pool pool, @ConfigProperty(name = "ironflow.conductor.history-retry-for") Duration retryFor) {
        this.pool = pool;
        this.retryFor = retryFor;
    }

    @Incoming("node-history")
    public Uni<Void> consume(Message<List<NodeEvent>> batch) {
        List<?> records = batch.getPayload(); // as objects: a record of another type is not cast to NodeEvent
        List<Row> rows = records.stream().map(NodeHistoryProjector::row).filter(Objects::nonNull).toList();
        if (rows.isEmpty()) {
            return Uni.createFrom().completionStage(batch.ack());
        }
        Tuple columns = columns(rows);
        return Uni.createFrom().deferred(() -> pool.preparedQuery(INSERT).execute(columns))
                .ifNoItem().after(ATTEMPT_DEADLINE).fail()
                .onFailure().retry().withBackOff(Duration.ofMillis(200), Duration.ofSeconds(5)).expireIn(retryFor.toMillis())
                .flatMap(x -> Uni.createFrom().completionStage(batch.ack()))
                .onFailure().recoverWithUni(failure -> {
                    LOG.errorf("node history: %d events (the first of node %s) could not be recorded for %s: %s",
                            rows.size(), rows.get(0).nodeUuid(), retryFor, failure.toString());
                    return Uni.createFrom().completionStage(batch.nack(failure));
                });
    }

    /** One history row, as the INSERT's columns. */
    private record Row(UUID eventId, UUID nodeUuid, OffsetDateTime createdAt, HistoryEntry entry, NodeEvent event) {
    }

    /** The event's row, or null (logged) for a record that is not a NodeEvent with UUIDs where they belong. */
    private static Row row(Object record) {
        if (!(record instanceof NodeEvent event)) {
            LOG.warnf("a node-events record is not a decodable NodeEvent (%s); it has no history entry",
                    record == null ? "undecodable" : record.getClass().getSimpleName());
            return null;
        }
        try {
            return new Row(UUID.fromString(event.getEventId()), UUID.fromString(event.getNodeUuid()),
                    event.getOccurredAt().atOffset(ZoneOffset.UTC),
                    HistoryEntry.of(event.getFromState(), event.getEvent(), event.getToState(), event.getIntentId(),
                            event.getDetail()), event);
        } catch (RuntimeException e) { // a bad UUID, a missing field: this record's problem, not the batch's
            LOG.warnf("node-event %s of node %s has no history entry: %s", event.getEventId(), event.getNodeUuid(),
                    e.getMessage());
            return null;
        }
    }

    /** PostgreSQL's text cannot hold NUL: one in an event would fail its batch at every attempt. */
    private static String text(String value) {
        return value == null || value.indexOf('\0') < 0 ? value : value.replace('\0', '\uFFFD');
    }

    /** The batch as the INSERT's twelve arrays, one per column. */
    private static Tuple columns(List<Row> rows) {
        Tuple tuple = Tuple.tuple()
                .addArrayOfUUID(rows.stream().map(Row::eventId).toArray(UUID[]::new))
                .addArrayOfUUID(rows.stream().map(Row::nodeUuid).toArray(UUID[]::new))
                .addArrayOfOffsetDateTime(rows.stream().map(Row::createdAt).toArray(OffsetDateTime[]::new));
        TEXT_COLUMNS.forEach(column -> tuple.addArrayOfString(rows.stream().map(column).map(NodeHistoryProjector::text)
                .toArray(String[]::new)));
        return tuple;
    }
}
