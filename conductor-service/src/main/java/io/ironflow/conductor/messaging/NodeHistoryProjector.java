package io.ironflow.conductor.messaging;

import io.ironflow.conductor.domain.HistoryEntry;
import io.ironflow.conductor.persistence.FreshContext;
import io.ironflow.events.NodeEvent;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.UUID;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.hibernate.reactive.common.AffectedEntities;
import org.jboss.logging.Logger;

/**
 * Builds node history (Ironic API 1.78) from ironflow.node-events: every transition becomes one
 * {@code node_history} row with its intent and requester, in one consumer group shared by all conductors. A
 * redelivered event is a no-op (its event id is unique), so publishing at least once is enough. Rows are never
 * deleted with their node: history outlives it, as the events do. A row that cannot be written is tried again,
 * backing off, for {@code ironflow.conductor.history-retry-for}; then the channel fails, liveness goes DOWN and
 * the conductor is restarted ({@link LivenessWatchdog}), resuming from the last committed offset, so no event is
 * skipped. A record that is not a decodable NodeEvent is logged and skipped: history is a projection, never a
 * reason to stop the conductor.
 */
@ApplicationScoped
public class NodeHistoryProjector {

    private static final Logger LOG = Logger.getLogger(NodeHistoryProjector.class);
    private static final String INSERT = "INSERT INTO node_history (event_id, node_uuid, created_at, severity, "
            + "event_type, event, conductor, requester, intent_id, from_state, to_state, transition) "
            + "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12) ON CONFLICT (event_id) DO NOTHING";
    /** The INSERT touches no entity, so Hibernate need not flush anything before it. */
    private static final AffectedEntities NONE = new AffectedEntities();

    private final Vertx vertx;
    private final Duration retryFor;

    NodeHistoryProjector(Vertx vertx, @ConfigProperty(name = "ironflow.conductor.history-retry-for") Duration retryFor) {
        this.vertx = vertx;
        this.retryFor = retryFor;
    }

    @Incoming("node-history")
    public Uni<Void> consume(Message<NodeEvent> message) {
        NodeEvent event = message.getPayload();
        if (event == null) {
            LOG.warn("a node-events record is not a decodable NodeEvent; it has no history entry");
            return Uni.createFrom().completionStage(message.ack());
        }
        return Uni.createFrom().completionStage(() -> FreshContext.run(vertx, () -> record(event)))
                .onFailure().retry().withBackOff(Duration.ofMillis(200), Duration.ofSeconds(5)).expireIn(retryFor.toMillis())
                .flatMap(x -> Uni.createFrom().completionStage(message.ack()))
                .onFailure().recoverWithUni(failure -> {
                    LOG.errorf("node history: event %s of node %s could not be recorded for %s: %s", event.getEventId(),
                            event.getNodeUuid(), retryFor, failure.toString());
                    return Uni.createFrom().completionStage(message.nack(failure));
                });
    }

    private Uni<Void> record(NodeEvent event) {
        HistoryEntry entry = HistoryEntry.of(event.getFromState(), event.getEvent(), event.getToState(), event.getIntentId(),
                event.getDetail());
        Object[] values = {UUID.fromString(event.getEventId()), UUID.fromString(event.getNodeUuid()),
            event.getOccurredAt().atOffset(ZoneOffset.UTC), entry.severity(), entry.eventType(), entry.event(),
            event.getConductor(), event.getRequester(), event.getIntentId(), event.getFromState(), event.getToState(),
            event.getEvent()};
        return Panache.withTransaction(() -> Panache.getSession().flatMap(session -> {
            var insert = session.createNativeQuery(INSERT, NONE);
            for (int i = 0; i < values.length; i++) {
                insert.setParameter(i + 1, values[i]);
            }
            return insert.executeUpdate();
        })).replaceWithVoid();
    }
}
