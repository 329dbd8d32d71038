package io.ironflow.conductor.metrics;

import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.jboss.logging.Logger;

/**
 * Refreshes the gauges that come from the database: nodes per provision state and the outbox backlog, every
 * {@code ironflow.conductor.metrics.gauge-interval}. Contract: two cheap statements (an index-only group-by and
 * the outbox's sequence span), each bounded by a deadline; a failure leaves the last values and is logged at
 * debug, since the database being down is reported by health, not here.
 */
@ApplicationScoped
public class NodeGauges {

    private static final Logger LOG = Logger.getLogger(NodeGauges.class);
    private static final Duration DEADLINE = Duration.ofSeconds(5);

    private final Pool pool;
    private final ConductorMetrics metrics;

    public NodeGauges(Pool pool, ConductorMetrics metrics) {
        this.pool = pool;
        this.metrics = metrics;
    }

    @Scheduled(every = "${ironflow.conductor.metrics.gauge-interval}", delayed = "5s",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP,
            skipExecutionIf = Scheduled.ApplicationNotRunning.class)
    Uni<Void> refresh() {
        Uni<Void> nodes = pool.query("SELECT provision_state, count(*) FROM nodes GROUP BY provision_state").execute()
                .invoke(rows -> {
                    Map<String, Long> counts = new HashMap<>();
                    for (Row row : rows) {
                        counts.put(row.getString(0), row.getLong(1));
                    }
                    metrics.nodesByState(counts);
                }).replaceWithVoid();
        // The span of sequence numbers, not count(*): constant time however long the backlog grows.
        Uni<Void> outbox = pool.query("SELECT coalesce(max(seq) - min(seq) + 1, 0) FROM outbox").execute()
                .invoke(rows -> metrics.outboxBacklog(rows.iterator().next().getLong(0))).replaceWithVoid();
        return Uni.join().all(nodes, outbox).andCollectFailures().replaceWithVoid()
                .ifNoItem().after(DEADLINE).fail()
                .onFailure().invoke(e -> LOG.debugf("refreshing the node gauges failed: %s", e.toString()))
                .onFailure().recoverWithNull();
    }
}
