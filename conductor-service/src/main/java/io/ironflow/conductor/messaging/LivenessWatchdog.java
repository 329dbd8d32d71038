package io.ironflow.conductor.messaging;

import io.quarkus.runtime.Quarkus;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.health.SmallRyeHealthReporter;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.time.Instant;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/**
 * A conductor must not stay up while applying nothing. SmallRye marks liveness DOWN when a channel fails (the
 * intake consumer, say) and never restarts it; after {@code ironflow.conductor.exit-when-dead-for} of DOWN this
 * exits the process, so its supervisor (./ironflow up, or Kubernetes through the liveness probe) starts a
 * fresh one, which resumes from the committed offsets.
 */
@ApplicationScoped
public class LivenessWatchdog {

    private static final Logger LOG = Logger.getLogger(LivenessWatchdog.class);

    private final SmallRyeHealthReporter health;
    private final Duration exitAfter;
    private volatile Instant downSince;

    LivenessWatchdog(SmallRyeHealthReporter health,
            @ConfigProperty(name = "ironflow.conductor.exit-when-dead-for") Duration exitAfter) {
        this.health = health;
        this.exitAfter = exitAfter;
    }

    @Scheduled(every = "5s", delayed = "5s", concurrentExecution = Scheduled.ConcurrentExecution.SKIP,
            skipExecutionIf = Scheduled.ApplicationNotRunning.class)
    void check() {
        var liveness = health.getLiveness();
        if (!liveness.isDown()) {
            downSince = null;
            return;
        }
        Instant now = Instant.now();
        if (downSince == null) {
            downSince = now;
            LOG.errorf("liveness is DOWN: %s", liveness.getPayload());
        } else if (Duration.between(downSince, now).compareTo(exitAfter) >= 0) {
            LOG.errorf("liveness DOWN for %s; exiting so that a supervisor starts a fresh conductor: %s",
                    exitAfter, liveness.getPayload());
            Quarkus.asyncExit(3);
        }
    }
}
