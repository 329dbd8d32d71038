package io.ironflow.conductor.work;

import io.ironflow.conductor.metrics.ConductorMetrics;
import io.ironflow.conductor.domain.Operation;
import io.ironflow.conductor.domain.ProvisionState;
import io.ironflow.conductor.work.ConductorIdentity;
import io.ironflow.conductor.messaging.OutboxRelay;
import io.ironflow.conductor.persistence.FreshContext;
import io.ironflow.conductor.persistence.NodeEntity;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;
import org.jboss.logging.MDC;

/**
 * What a conductor does on its own, as Ironic's periodic tasks: heartbeat, take over the nodes of conductors
 * that stopped heartbeating, pick up call-backs whose conductor is gone, and fail wait states that outlive
 * their timeout (and oneview power changes past their deadline). Nodes in maintenance are left alone by the timeout check (Ironic's rule); retired nodes are not (a
 * retired node is cleaned on its way out, and a wait without a deadline would wedge it); recovery of
 * a dead conductor's nodes is not a periodic task on a node but a repair, and applies to every node.
 */
@ApplicationScoped
public class ConductorDuties {

    private static final Logger LOG = Logger.getLogger(ConductorDuties.class);

    private final ConductorIdentity conductor;
    private final NodeWork work;
    private final OutboxRelay relay;
    private final Duration heartbeatTimeout;
    private final Duration waitTimeout;
    private final Duration deadline;
    private final Vertx vertx;
    private final ConductorMetrics metrics;
    private final Instant startedAt = Instant.now();
    private volatile boolean recovered;
    /** Duties whose last runs failed, with how many in a row ({@link #reported}). */
    private final Map<String, Integer> failingDuties = new ConcurrentHashMap<>();

    ConductorDuties(ConductorIdentity conductor, NodeWork work, OutboxRelay relay,
            @ConfigProperty(name = "ironflow.conductor.heartbeat-timeout") Duration heartbeatTimeout,
            @ConfigProperty(name = "ironflow.conductor.wait-timeout") Duration waitTimeout,
            @ConfigProperty(name = "ironflow.conductor.intent-deadline") Duration deadline, Vertx vertx,
            ConductorMetrics metrics) {
        this.conductor = conductor;
        this.work = work;
        this.relay = relay;
        this.heartbeatTimeout = heartbeatTimeout;
        this.waitTimeout = waitTimeout;
        this.deadline = deadline;
        this.vertx = vertx;
        this.metrics = metrics;
        metrics.waitStates(Operation.waitStates().stream().map(ProvisionState::wire).toList());
    }

    /** Whether this conductor has released what an earlier run of it held; it takes no intents before. */
    public boolean recovered() {
        return recovered;
    }

    /**
     * Heartbeat. The first one, at start-up, first fails the nodes an earlier run of this conductor left in an
     * -ING state (their work died with it) and releases its reservations.
     */
    @Scheduled(every = "${ironflow.conductor.heartbeat-interval}", delayed = "1s", concurrentExecution = Scheduled.ConcurrentExecution.SKIP,
            skipExecutionIf = Scheduled.ApplicationNotRunning.class)
    Uni<Void> heartbeat() {
        Uni<Void> first = recovered ? Uni.createFrom().voidItem()
                : repair(conductor.name(), startedAt, "Conductor " + conductor.name() + " restarted while node %s was in state %s.")
                        .invoke(() -> recovered = true);
        return reported("heartbeat", first.flatMap(x -> Panache.withTransaction(() -> Panache.getSession().flatMap(session -> session
                .createNativeQuery("INSERT INTO conductors (hostname, started_at, heartbeat_at) VALUES (?1, now(), now())"
                        + " ON CONFLICT (hostname) DO UPDATE SET heartbeat_at = now()")
                .setParameter(1, conductor.name())
                .executeUpdate()))).replaceWithVoid());
    }

    /**
     * Takes over the nodes of every conductor silent for longer than the heartbeat timeout. Silence is measured on
     * the database's clock, which stamps the heartbeats: a conductor whose own clock runs ahead would otherwise find
     * its live peers dead at every run.
     */
    @Scheduled(every = "${ironflow.conductor.heartbeat-interval}", delayed = "1s", concurrentExecution = Scheduled.ConcurrentExecution.SKIP,
            skipExecutionIf = Scheduled.ApplicationNotRunning.class)
    Uni<Void> takeOver() {
        if (!recovered) {
            return Uni.createFrom().voidItem();
        }
        double silent = heartbeatTimeout.toMillis() / 1000.0;
        return reported("takeOver", Panache.withSession(() -> Panache.getSession().flatMap(session -> NodeSql.bind(session
                        .createNativeQuery("SELECT hostname FROM conductors WHERE heartbeat_at < now() - make_interval(secs => ?1)"
                                + " AND hostname <> ?2", String.class),
                        silent, conductor.name()).getResultList()))
                .flatMap(dead -> sequentially(dead, gone -> {
                    LOG.warnf("conductor %s missed its heartbeats for %s; %s takes over its nodes", gone,
                            heartbeatTimeout, conductor.name());
                    return repair(gone, Instant.now(), "Conductor " + gone + " went offline while node %s was in state %s; taken over by "
                            + conductor.name() + ".")
                            .flatMap(x -> Panache.withTransaction(() -> Panache.getSession().flatMap(session -> NodeSql.bind(
                                    session.createNativeQuery("DELETE FROM conductors WHERE hostname = ?1 AND heartbeat_at"
                                            + " < now() - make_interval(secs => ?2)"), gone, silent).executeUpdate())))
                            .invoke(metrics::takeover)
                            .replaceWithVoid();
                })));
    }

    /**
     * Releases every node {@code holder} reserves; a node whose work was running (an -ING state) cannot be
     * resumed and goes to the matching failed state, as Ironic treats stuck states after a conductor loss.
     * Only nodes it took before {@code before}: at start-up, intents this run already took are its own.
     */
    private Uni<Void> repair(String holder, Instant before, String errorFormat) {
        return uuids("SELECT uuid FROM nodes WHERE reservation = ?1 AND (provision_updated_at IS NULL OR provision_updated_at < ?2)",
                holder, before)
                .flatMap(nodes -> sequentially(nodes, uuid -> Panache.withTransaction(() -> Reservations
                        .claimFrom(uuid, holder, conductor.name())
                        .flatMap(claimed -> !claimed ? Uni.createFrom().voidItem() : NodeEntity.<NodeEntity>findById(uuid)
                                .flatMap(node -> {
                                    NodeChange change = new NodeChange(node, null, conductor.name());
                                    ProvisionState state = change.state();
                                    if (Operation.of(state).map(op -> op.working() == state).orElse(false)) {
                                        work.fail(change, String.format(errorFormat, node.uuid, state.wire()));
                                    } else {
                                        change.aggregate().release();
                                        change.touched();
                                    }
                                    return change.announce();
                                })))))
                .invoke(relay::wakeUp);
    }

    /** Call-backs that are due and that no conductor has taken (their scheduler died with its conductor). */
    @Scheduled(every = "${ironflow.conductor.call-back-sweep-interval}", delayed = "2s", concurrentExecution = Scheduled.ConcurrentExecution.SKIP,
            skipExecutionIf = Scheduled.ApplicationNotRunning.class)
    Uni<Void> sweepCallBacks() {
        if (!recovered) {
            return Uni.createFrom().voidItem();
        }
        return reported("sweepCallBacks", uuids("SELECT uuid FROM nodes WHERE provision_state IN " + NodeSql.WAIT_STATES
                + " AND reservation IS NULL AND (driver_internal_info ->> 'step_due_at')::bigint <= ?1", System.currentTimeMillis() - 1000)
                .flatMap(nodes -> sequentially(nodes, uuid -> work.callBack(uuid)
                        .invoke(dueAt -> work.scheduleCallBack(uuid, dueAt)).replaceWithVoid()))
                .invoke(relay::wakeUp));
    }

    /**
     * Fails nodes that waited longer than the wait timeout; skips nodes in maintenance, as Ironic does. Retired nodes
     * time out like any other: seed 000's "exclude retired nodes from periodic tasks" is not read as a wait without
     * a deadline, which is what a retired node's cleaning would then be once its call-back is lost.
     */
    @Scheduled(every = "${ironflow.conductor.wait-timeout-check-interval}", delayed = "3s", concurrentExecution = Scheduled.ConcurrentExecution.SKIP,
            skipExecutionIf = Scheduled.ApplicationNotRunning.class)
    Uni<Void> failTimedOutWaits() {
        if (!recovered) {
            return Uni.createFrom().voidItem();
        }
        return reported("failTimedOutWaits", uuids("SELECT uuid FROM nodes WHERE provision_state IN " + NodeSql.WAIT_STATES
                + " AND reservation IS NULL AND NOT maintenance AND provision_updated_at < ?1", Instant.now().minus(waitTimeout))
                .flatMap(nodes -> sequentially(nodes, uuid -> Panache.withTransaction(() -> Reservations
                        .claim(uuid, conductor.name())
                        .flatMap(claimed -> !claimed ? Uni.createFrom().<String>nullItem() : NodeEntity.<NodeEntity>findById(uuid)
                                .flatMap(node -> {
                                    NodeChange change = new NodeChange(node, null, conductor.name());
                                    ProvisionState state = change.state();
                                    if (!Operation.of(state).flatMap(Operation::waiting).map(w -> w == state).orElse(false)) {
                                        change.aggregate().release(); // moved on since the scan
                                        return Uni.createFrom().<String>nullItem();
                                    }
                                    work.fail(change, "Timeout reached while node " + node.uuid + " was in state " + state.wire()
                                            + " (" + waitTimeout.toSeconds() + " s).");
                                    return change.announce().replaceWith(state.wire());
                                })))
                        .invoke(timedOut -> {
                            if (timedOut != null) {
                                metrics.waitTimedOut(timedOut); // committed
                            }
                        })
                        .replaceWithVoid()))
                .invoke(relay::wakeUp));
    }

    /** Fails the power changes of oneview nodes that the allocator did not answer by their deadline. */
    @Scheduled(every = "${ironflow.conductor.wait-timeout-check-interval}", delayed = "3s", concurrentExecution = Scheduled.ConcurrentExecution.SKIP,
            skipExecutionIf = Scheduled.ApplicationNotRunning.class)
    Uni<Void> failExpiredPowerRequests() {
        if (!recovered) {
            return Uni.createFrom().voidItem();
        }
        return reported("failExpiredPowerRequests", uuids("SELECT uuid FROM nodes WHERE reservation IS NULL"
                + " AND (driver_internal_info -> '" + OneViewPower.PENDING + "' ->> 'deadline')::bigint < ?1", System.currentTimeMillis())
                .flatMap(nodes -> sequentially(nodes, uuid -> Panache.withTransaction(() -> Reservations
                        .claimExpiredPowerRequest(uuid, conductor.name())
                        .flatMap(claimed -> !claimed ? Uni.createFrom().voidItem() : NodeEntity.<NodeEntity>findById(uuid)
                                .flatMap(node -> {
                                    NodeChange change = new NodeChange(node, null, conductor.name());
                                    OneViewPower.expire(change, work);
                                    return change.announce();
                                })))))
                .invoke(relay::wakeUp));
    }

    /**
     * A duty's run whose failure is told once, not at every tick: while the database is away each duty fails
     * every second, and the scheduler would log each failure with its stack. The first failure is a warning
     * with the cause; the next ones are at debug level until a run works, which says how many failed.
     */
    private Uni<Void> reported(String duty, Uni<Void> run) {
        return run.onItemOrFailure().transform((done, failure) -> {
            if (failure == null) {
                Integer failed = failingDuties.remove(duty);
                if (failed != null) {
                    LOG.infof("%s works again, after %d failed runs", duty, failed);
                }
            } else if (failingDuties.merge(duty, 1, Integer::sum) == 1) {
                LOG.warnf(failure, "%s failed; it runs again at its next tick, and says so once it works", duty);
            } else {
                LOG.debugf("%s failed again: %s", duty, failure);
            }
            return null;
        });
    }

    private static Uni<List<UUID>> uuids(String sql, Object... parameters) {
        return Panache.withSession(() -> Panache.getSession()
                .flatMap(session -> NodeSql.bind(session.createNativeQuery(sql, UUID.class), parameters).getResultList()));
    }

    /**
     * Works through {@code items} (node uuids, or the host names of conductors gone) one at a time, each on a fresh
     * context (its own session) and within the intent deadline: one that fails or hangs is logged and left for the
     * next run, and never stops the others.
     */
    private <T> Uni<Void> sequentially(List<T> items, Function<T, Uni<Void>> action) {
        return Multi.createFrom().iterable(items)
                .onItem().transformToUniAndConcatenate(item -> Uni.createFrom()
                        .completionStage(() -> FreshContext.run(vertx, () -> {
                            if (item instanceof UUID node) {
                                MDC.put("node", node.toString()); // the node's log lines carry its uuid
                            }
                            return action.apply(item);
                        }))
                        .ifNoItem().after(deadline).fail()
                        .onFailure().invoke(e -> LOG.warnf("periodic work on %s %s failed, retried next time: %s",
                                item instanceof UUID ? "node" : "conductor", item, e.toString()))
                        .onFailure().recoverWithNull())
                .collect().last().replaceWithVoid();
    }
}
