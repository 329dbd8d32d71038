package io.ironflow.teardown.actions;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ironflow.teardown.revisions.Revisions;
import io.ironflow.teardown.status.AirshipStatus;
import io.ironflow.teardown.status.StepFailure;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import io.ironflow.events.TeardownStepEvent;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/**
 * Runs actions step by step on a pool of its own ({@code action-threads}), each step stored before and after
 * it runs and announced on ironflow.teardown-events. Between steps it honours pause (the action rests Paused
 * until unpaused) and stop (Failed, the remaining steps skipped). The first failing step fails the action. At
 * start it resumes every Pending or Processing action from its first step not yet succeeded; a step cut short by
 * a shutdown is not recorded as failed, it runs again then. deploy_site tags its revision at the end:
 * site-action-success, or site-action-failure once it got past validation.
 * <p>
 * Several instances may share one database: an action runs only under its lease ({@link ActionLeases}), renewed
 * before every step (a lease lost meanwhile stops the run here: another instance has the action); every write of a
 * run is fenced on the lease ({@link LeaseLost}: nothing written, the run stops), and every
 * {@code resume-interval} each instance offers itself the unfinished actions nobody runs, which also takes over
 * the actions of an instance that died once their leases expired. A step's change and its events are stored together (the outbox).
 */
@ApplicationScoped
public class ActionRunner {

    private static final Logger LOG = Logger.getLogger(ActionRunner.class);

    @Inject
    ActionStore store;

    @Inject
    ActionSteps steps;

    @Inject
    TeardownEvents events;

    @Inject
    ObjectMapper json;

    @ConfigProperty(name = "ironflow.teardown.action-threads")
    int threads;

    @Inject
    MeterRegistry metrics;

    @Inject
    ActionLeases leases;

    @Inject
    OutboxRelay outbox;

    @ConfigProperty(name = "ironflow.teardown.resume-interval", defaultValue = "10s")
    Duration resumeInterval;

    private final Set<String> running = ConcurrentHashMap.newKeySet();
    private volatile boolean shuttingDown;
    private ExecutorService pool;
    private ScheduledExecutorService rescan;

    void start(@Observes StartupEvent started) {
        AtomicInteger n = new AtomicInteger();
        pool = Executors.newFixedThreadPool(threads, r -> {
            Thread thread = new Thread(r, "teardown-action-" + n.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        });
        List<String> unfinished = store.unfinished();
        if (!unfinished.isEmpty()) {
            LOG.infof("resuming %d unfinished action(s): %s", unfinished.size(), unfinished);
        }
        unfinished.forEach(this::submit);
        rescan = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread thread = new Thread(r, "teardown-rescan");
            thread.setDaemon(true);
            return thread;
        });
        rescan.scheduleWithFixedDelay(this::rescan, resumeInterval.toMillis(), resumeInterval.toMillis(), TimeUnit.MILLISECONDS);
    }

    void stop(@Observes ShutdownEvent stopping) {
        shuttingDown = true;
        rescan.shutdownNow();
        pool.shutdownNow();
    }

    /** Offers this instance every unfinished action: those another instance holds a lease on are passed over. */
    private void rescan() {
        try {
            store.unfinished().forEach(this::submit);
        } catch (RuntimeException e) {
            LOG.warnf("looking for unfinished actions failed, trying again in %s: %s", resumeInterval, e.getMessage());
        }
    }

    /** Runs the action unless it is already running here. */
    public void submit(String id) {
        if (running.add(id)) {
            pool.submit(() -> {
                try {
                    Optional<ActionLeases.Lease> lease = leases.tryTake(id);
                    if (lease.isEmpty()) {
                        LOG.debugf("action %s runs on another instance", id);
                        return;
                    }
                    try (ActionLeases.Lease held = lease.get()) {
                        run(id, held);
                    } catch (LeaseLost e) {
                        // A write or a step's check found the lease gone (expired while the database was out of
                        // reach) or could not renew it: nothing was written, and whoever holds the lease goes on.
                        LOG.warnf("%s; this instance stops running it", e.getMessage());
                    }
                } catch (RuntimeException e) {
                    LOG.errorf(e, "action %s stopped on an unexpected error; it goes on at the next start", id);
                } finally {
                    running.remove(id);
                }
            });
        }
    }

    private void run(String id, ActionLeases.Lease lease) {
        while (!shuttingDown) {
            if (!lease.renew()) {
                LOG.warnf("action %s: this instance lost its lease (it could not renew it in time); another instance goes on", id);
                return;
            }
            Action action = store.find(id);
            if (action == null || Lifecycle.finished(action.lifecycle())) {
                return;
            }
            Action.Step next = action.steps().stream()
                    .filter(s -> !s.status().equals(Lifecycle.STEP_SUCCEEDED) && !s.status().equals(Lifecycle.STEP_SKIPPED))
                    .findFirst().orElse(null);
            if (action.stopRequested()) {
                skipRemaining(action, "stopped by request");
                end(action, Lifecycle.FAILED);
                return;
            }
            // A failed step is final. Found on a resume, it means a crash came between storing the failure and
            // ending the action: end it now, as runStep would have, instead of running that step again.
            if (action.steps().stream().anyMatch(s -> s.status().equals(Lifecycle.STEP_FAILED))) {
                skipRemaining(action, "an earlier step failed");
                end(action, Lifecycle.FAILED);
                return;
            }
            if (action.pauseRequested()) {
                if (store.pauseIfRequested(id)) {
                    LOG.infof("action %s paused", id);
                    return;
                }
                continue; // unpaused or stopped since it was read: look again
            }
            if (next == null) {
                end(action, Lifecycle.COMPLETE);
                return;
            }
            if (!Lifecycle.PROCESSING.equals(action.lifecycle())) {
                store.lifecycle(id, Lifecycle.PROCESSING, leases.owner());
            }
            if (!runStep(action, next, lease)) {
                return;
            }
        }
    }

    /** Runs one step; false when the action ended (failed) or the orchestrator is shutting down. */
    private boolean runStep(Action action, Action.Step step, ActionLeases.Lease lease) {
        Integer revision = revisionOf(action);
        List<TeardownStepEvent> started;
        try {
            started = events(action, step, "started", null, revision);
        } catch (RuntimeException e) {
            // Thrown out of run(), it would be retried at every rescan for ever, a stop included: fail the step instead.
            LOG.errorf(e, "action %s: the events of step %s could not be built", action.id(), step.step());
            fail(action, step, AirshipStatus.failure(500, "StepError", "the step's events could not be built: " + e.getMessage(), List.of()),
                    revision);
            return false;
        }
        store.stepStarted(action.id(), step.seq(), started, leases.owner());
        outbox.wakeUp();
        Timer.Sample took = Timer.start(metrics);
        try {
            AirshipStatus result = steps.run(action, step, () -> stillHeld(action.id(), lease));
            took.stop(stepTimer(step, "succeeded"));
            store.stepFinished(action.id(), step.seq(), Lifecycle.STEP_SUCCEEDED, result.message(), text(result),
                    events(action, step, "succeeded", result.message(), revision), leases.owner());
            outbox.wakeUp();
            return true;
        } catch (LeaseLost e) {
            throw e; // the step's result is the lease holder's to write now, not this instance's
        } catch (RuntimeException e) {
            if (shuttingDown) {
                LOG.infof("action %s: step %s interrupted by shutdown; it runs again at the next start", action.id(), step.step());
                return false;
            }
            took.stop(stepTimer(step, "failed"));
            AirshipStatus status = e instanceof StepFailure f ? f.status()
                    : AirshipStatus.failure(500, "StepError", String.valueOf(e.getMessage()), List.of());
            if (!(e instanceof StepFailure)) {
                LOG.errorf(e, "action %s: step %s failed unexpectedly", action.id(), step.step());
            }
            fail(action, step, status, revision);
            return false;
        }
    }

    /**
     * Between a step's parts: renews the lease, or throws {@link LeaseLost} when it is gone or cannot be renewed
     * (the database out of reach). The runner then stops writing nothing; an action still ours is resumed by the
     * rescan, its step run again from the start, as every step is idempotent.
     */
    private void stillHeld(String id, ActionLeases.Lease lease) {
        boolean held;
        try {
            held = lease.renew();
        } catch (IllegalStateException e) {
            throw new LeaseLost(id, leases.owner(), "could not renew its lease: " + e.getMessage());
        }
        if (!held) {
            throw new LeaseLost(id, leases.owner());
        }
    }

    /** Stores the step failed with {@code status}, skips the steps after it and ends the action Failed. */
    private void fail(Action action, Action.Step step, AirshipStatus status, Integer revision) {
        store.stepFinished(action.id(), step.seq(), Lifecycle.STEP_FAILED, status.message(), text(status),
                eventsOrNone(action, step, "failed", status.message(), revision), leases.owner());
        outbox.wakeUp();
        Action now = store.find(action.id());
        skipRemaining(now, "an earlier step failed");
        end(now, Lifecycle.FAILED);
    }

    /** ironflow_teardown_step_duration_seconds{step,result}: how long each kind of step takes, and how it ends. */
    private Timer stepTimer(Action.Step step, String result) {
        return Timer.builder("ironflow.teardown.step.duration").tag("step", step.step()).tag("result", result)
                .publishPercentileHistogram().register(metrics);
    }

    private void end(Action action, String lifecycle) {
        ActionStore.SiteActionTag tag = null;
        if (ActionRequests.DEPLOY_SITE.equals(action.name())) {
            Integer revision = revisionOf(action);
            boolean validated = action.steps().stream().anyMatch(s -> s.step().equals(ActionSteps.VALIDATE_SITE_DESIGN)
                    && s.status().equals(Lifecycle.STEP_SUCCEEDED));
            if (revision != null && Lifecycle.COMPLETE.equals(lifecycle)) {
                tag = new ActionStore.SiteActionTag(revision, Revisions.SUCCESS_TAG);
            } else if (revision != null && validated) {
                tag = new ActionStore.SiteActionTag(revision, Revisions.FAILURE_TAG);
            }
        }
        store.finish(action.id(), lifecycle, leases.owner(), tag); // the tag with the end, fenced on the lease
        LOG.infof("action %s (%s) %s", action.id(), action.name(), lifecycle);
    }

    private void skipRemaining(Action action, String why) {
        Integer revision = revisionOf(action);
        for (Action.Step s : action.steps()) {
            if (s.status().equals(Lifecycle.STEP_RUNNING)) {
                // Found running on a resume: cut short by a crash or a shutdown, perhaps half done (a destroy's
                // undeploy sent, its power-off not). It did not succeed and was not skipped: it failed, and says so.
                String cut = "interrupted: the orchestrator stopped while this step ran, which may have done part of its"
                        + " work; then " + why;
                store.stepFinished(action.id(), s.seq(), Lifecycle.STEP_FAILED, cut, null,
                        eventsOrNone(action, s, "failed", cut, revision), leases.owner());
            } else if (s.status().equals(Lifecycle.STEP_PENDING)) {
                store.stepFinished(action.id(), s.seq(), Lifecycle.STEP_SKIPPED, why, null,
                        eventsOrNone(action, s, "skipped", why, revision), leases.owner());
            }
        }
        outbox.wakeUp();
    }

    /**
     * The step's change as events, one per node it concerns: an action-wide step concerns every node of the action
     * ({@link Action#nodes}, what it claimed; deploy_site's none), never a name merely found in its parameters.
     */
    private List<TeardownStepEvent> events(Action action, Action.Step step, String status, String message, Integer revision) {
        List<String> nodes = step.node() != null ? List.of(step.node()) : action.nodes();
        return nodes.stream().map(node -> events.event(action.id(), node, step.step(), status, message, revision)).toList();
    }

    /**
     * {@link #events}, or none when they cannot be built: a failure or a skip is stored unannounced (logged) rather
     * than not at all, which would leave the action Processing and retried for ever.
     */
    private List<TeardownStepEvent> eventsOrNone(Action action, Action.Step step, String status, String message, Integer revision) {
        try {
            return events(action, step, status, message, revision);
        } catch (RuntimeException e) {
            LOG.errorf(e, "action %s: step %s is stored %s without its events", action.id(), step.step(), status);
            return List.of();
        }
    }

    private Integer revisionOf(Action action) {
        try {
            return steps.revision(action);
        } catch (RuntimeException e) {
            return null;
        }
    }

    private String text(AirshipStatus status) {
        try {
            return json.writeValueAsString(status);
        } catch (JsonProcessingException e) {
            return null;
        }
    }
}
