package io.ironflow.conductor.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * The conductor's own Prometheus metrics (served on /q/metrics with Micrometer's; names follow Prometheus
 * conventions once exported: {@code ironflow_conductor_intents_total}, {@code ..._seconds}, ...).
 *
 * <p>Contract: counters count what was committed or answered, never attempts: an intent when its answer is
 * written, a transition when the relay has published it, a wait timeout or a takeover when its transaction
 * committed. Gauges are refreshed by {@link NodeGauges}. Label values come from closed sets (commands, states,
 * events, codes), never from node data, so the series stay bounded. Each series is looked up in the registry
 * once and kept (per intent the registry's lookup, its tags sorted and its id built, was 1.4 % of the conductor).
 */
@ApplicationScoped
public class ConductorMetrics {

    private final MeterRegistry registry;
    private final Map<String, AtomicLong> nodesByState = new ConcurrentHashMap<>();
    private final AtomicLong outboxBacklog = new AtomicLong();
    /** The meters with labels, by a key of their name's record type and their label values. */
    private final Map<Object, Meter> series = new ConcurrentHashMap<>();
    private final Timer relayLag;
    private final DistributionSummary transactionIntents;
    private final Counter sharedRollbacks;
    private final Counter lockRetries;
    private final Counter relayLockBusy;
    private final Counter takeovers;
    private final Counter untrustedIntents;

    private record Received(String command) {
    }

    private record Answered(String command, String result, int code) {
    }

    private record IntentDuration(String command) {
    }

    private record Transition(String from, String event, String to) {
    }

    private record WaitTimeout(String state) {
    }

    private record DeadLetter(String topic) {
    }

    public ConductorMetrics(MeterRegistry registry) {
        this.registry = registry;
        registry.gauge("ironflow.conductor.outbox.backlog", outboxBacklog);
        relayLag = Timer.builder("ironflow.conductor.outbox.relay.lag").publishPercentileHistogram().register(registry);
        transactionIntents = DistributionSummary.builder("ironflow.conductor.transaction.intents").register(registry);
        sharedRollbacks = registry.counter("ironflow.conductor.transaction.shared.rollbacks");
        // Served at 0 from the start, so a rate() over them works before the first event.
        lockRetries = registry.counter("ironflow.conductor.node.lock.retries");
        relayLockBusy = registry.counter("ironflow.conductor.outbox.relay.lock.busy");
        takeovers = registry.counter("ironflow.conductor.takeovers");
        untrustedIntents = registry.counter("ironflow.conductor.intents.untrusted");
    }

    /** An intent whose signature did not make it believable was dead-lettered unapplied. */
    public void untrustedIntent() {
        untrustedIntents.increment();
    }

    @SuppressWarnings("unchecked")
    private <M extends Meter> M series(Object key, Supplier<M> register) {
        Meter meter = series.get(key);
        return (M) (meter != null ? meter : series.computeIfAbsent(key, k -> register.get()));
    }

    /** Serves the wait-timeout counter of each of {@code waitStates} at 0 from the start. */
    public void waitStates(java.util.Collection<String> waitStates) {
        waitStates.forEach(this::waitTimeouts);
    }

    /** An intent was taken off ironflow.node-intents. */
    public void intentReceived(String command) {
        this.<Counter>series(new Received(command),
                () -> registry.counter("ironflow.conductor.intents.received", "command", command)).increment();
    }

    /**
     * An intent was answered: applied (accepted), refused (with its code), or answered again (a redelivery,
     * {@code code} 0 when unknown), after {@code took}.
     */
    public void intentAnswered(String command, String result, int code, Duration took) {
        this.<Counter>series(new Answered(command, result, code), () -> registry.counter("ironflow.conductor.intents",
                "command", command, "result", result, "code", String.valueOf(code))).increment();
        this.<Timer>series(new IntentDuration(command), () -> Timer.builder("ironflow.conductor.intent.duration")
                .tag("command", command).publishPercentileHistogram().register(registry)).record(took);
    }

    /** A committed transition of the state machine, as published on ironflow.node-events. */
    public void transition(String from, String event, String to) {
        this.<Counter>series(new Transition(from, event, to), () -> registry.counter("ironflow.conductor.transitions",
                "from", from == null ? "none" : from, "event", event, "to", to == null ? "deleted" : to)).increment();
    }

    /** How long a node event waited between its commit and its publication. */
    public void relayLag(Duration lag) {
        relayLag.record(lag.isNegative() ? Duration.ZERO : lag);
    }

    /** A transaction on the plain client began with {@code intents} intents in it (more than one: group commit). */
    public void transaction(int intents) {
        transactionIntents.record(intents);
    }

    /**
     * A shared transaction did not commit: a statement or a work failed (its intents ran again, each alone), or
     * its deadline passed (they were answered with the timeout).
     */
    public void sharedRollback() {
        sharedRollbacks.increment();
    }

    /** The relay moved a record the broker can never take to outbox_dead_letters. */
    public void outboxDeadLetter(String topic) {
        this.<Counter>series(new DeadLetter(topic), () -> registry.counter("ironflow.conductor.outbox.dead.letters",
                "topic", topic));
    }

    /** An intent found its node reserved and will try again. */
    public void lockRetry() {
        lockRetries.increment();
    }

    /** The outbox relay found the relays' lock held by another conductor's and will try again. */
    public void relayLockBusy() {
        relayLockBusy.increment();
    }

    /** How many times the relay found the lock held (for tests and the metrics endpoint alike). */
    public double relayLockBusyCount() {
        return relayLockBusy.count();
    }

    /** A node was failed because it waited in {@code state} longer than the wait timeout. */
    public void waitTimedOut(String state) {
        waitTimeouts(state).increment();
    }

    private Counter waitTimeouts(String state) {
        return series(new WaitTimeout(state), () -> registry.counter("ironflow.conductor.wait.timeouts", "state", state));
    }

    /** This conductor took over the nodes of one that stopped heartbeating. */
    public void takeover() {
        takeovers.increment();
    }

    /** The node table's counts per provision state; a state no node is in any more reads 0. */
    public void nodesByState(Map<String, Long> counts) {
        nodesByState.forEach((state, gauge) -> gauge.set(counts.getOrDefault(state, 0L)));
        counts.forEach((state, count) -> nodesByState.computeIfAbsent(state,
                s -> registry.gauge("ironflow.conductor.nodes", io.micrometer.core.instrument.Tags.of("provision_state", s),
                        new AtomicLong())).set(count));
    }

    /** Rows committed to the outbox and not yet published. */
    public void outboxBacklog(long rows) {
        outboxBacklog.set(rows);
    }
}
