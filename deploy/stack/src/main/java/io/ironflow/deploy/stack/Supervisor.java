package io.ironflow.deploy.stack;

import io.ironflow.deploy.infra.ChildJvm;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

/**
 * Keeps one service running. Once {@link #supervise()}d, a child that exits (any code) or whose liveness URL
 * stays DOWN or unanswered for {@link Policy#livenessTimeout} is killed if need be and started again after a
 * backoff that doubles from {@link Policy#firstBackoff} to {@link Policy#maxBackoff}, and resets once the
 * child has stayed live for {@link Policy#resetAfter}. Each event is one line to the log. A new instance starts only
 * once the last one has gone, so a service never runs twice (the teardown orchestrator's leases name it).
 */
final class Supervisor implements AutoCloseable {

    /** How a service is judged and restarted. */
    record Policy(Duration checkEvery, Duration livenessTimeout, Duration startTimeout, Duration firstBackoff,
            Duration maxBackoff, Duration resetAfter) {

        /** {@code ./ironflow up}'s: liveness checked every 5 s; a restarted service gets 120 s to come up. */
        static Policy of(Duration livenessTimeout) {
            return new Policy(Duration.ofSeconds(5), livenessTimeout, Duration.ofSeconds(120), Duration.ofSeconds(1),
                    Duration.ofSeconds(30), Duration.ofSeconds(60));
        }

        Duration backoff(int attempt) {
            long millis = firstBackoff.toMillis() << Math.min(attempt - 1, 20);
            return Duration.ofMillis(Math.min(millis, maxBackoff.toMillis()));
        }
    }

    /** Starts one instance of the service. */
    interface Launch {
        ChildJvm start() throws IOException;
    }

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    private final String name;
    private final Launch launch;
    private final HttpRequest liveness;
    private final Policy policy;
    private final Consumer<String> log;
    private final CountDownLatch closed = new CountDownLatch(1);
    private ChildJvm child; // guarded by this

    Supervisor(String name, Launch launch, URI liveness, Policy policy, Consumer<String> log) {
        this.name = name;
        this.launch = launch;
        // A loaded machine may take a moment to answer: a probe waits up to 2 s, whatever the check interval, but
        // never past the liveness timeout, so "unanswered for N s" is what it says.
        Duration probe = Collections.min(List.of(Duration.ofSeconds(2), policy.livenessTimeout()));
        this.liveness = HttpRequest.newBuilder(liveness).timeout(probe).GET().build();
        this.policy = policy;
        this.log = log;
    }

    /** Starts the first instance (not yet supervised: the caller awaits its readiness). */
    synchronized ChildJvm start() throws IOException {
        child = launch.start();
        return child;
    }

    synchronized ChildJvm current() {
        return child;
    }

    /** Watches the running instance from now on, on a thread of its own, until {@link #close()}. */
    void supervise() {
        Thread watcher = new Thread(() -> {
            try {
                watch();
            } catch (RuntimeException e) {
                log("is no longer supervised: " + e);
            }
        }, "supervisor-" + name);
        watcher.setDaemon(true);
        watcher.start();
    }

    private void watch() {
        int attempt = 0; // restarts since the service last stayed live for resetAfter
        long startedAt = System.nanoTime();
        long liveAt = startedAt; // the last time it answered UP; a fresh instance counts from its start
        boolean beenLive = true; // the first instance was ready before supervision began
        while (!isClosed()) {
            ChildJvm running = current();
            String reason = null;
            try {
                Process exited = running.process().onExit().get(policy.checkEvery().toMillis(), TimeUnit.MILLISECONDS);
                // Ctrl-C reaches the children too: when the launcher is stopping, that exit is no failure.
                if (closed.await(250, TimeUnit.MILLISECONDS)) {
                    return;
                }
                reason = "exited with code " + exited.exitValue();
            } catch (TimeoutException stillRunning) {
                long now = System.nanoTime();
                if (live()) {
                    liveAt = now;
                    if (!beenLive) {
                        beenLive = true;
                        log("is live again after restart " + attempt + " (pid " + running.process().pid() + ")");
                    }
                    if (attempt > 0 && now - startedAt >= policy.resetAfter().toNanos()) {
                        log("has stayed live for " + policy.resetAfter().toSeconds() + " s; backoff reset");
                        attempt = 0;
                    }
                } else if (running.process().isAlive()) { // else it died meanwhile: the next round says how
                    Duration limit = beenLive ? policy.livenessTimeout() : policy.startTimeout();
                    if (now - liveAt >= limit.toNanos()) {
                        kill(running);
                        if (running.process().isAlive()) { // never two at once: a service may hold leases by its name
                            log("survived SIGKILL (pid " + running.process().pid() + "); not restarted while it runs");
                            continue;
                        }
                        reason = (beenLive ? "liveness DOWN or unanswered for " : "not live within ")
                                + limit.toSeconds() + " s; killed";
                    }
                }
            } catch (InterruptedException | ExecutionException e) {
                return;
            }
            if (reason == null) {
                continue;
            }
            attempt++;
            Duration backoff = policy.backoff(attempt);
            log(reason + " (pid " + running.process().pid() + "); restart " + attempt + " in "
                    + backoff.toMillis() / 1000.0 + " s; see " + running.log());
            try {
                if (closed.await(backoff.toMillis(), TimeUnit.MILLISECONDS) || !restart()) {
                    return;
                }
            } catch (InterruptedException e) {
                return;
            } catch (IOException e) {
                log("restart " + attempt + " failed: " + e.getMessage()); // the next round finds it exited
            }
            startedAt = System.nanoTime();
            liveAt = startedAt;
            beenLive = false;
        }
    }

    /** Starts a new instance unless closed meanwhile; false if closed. */
    private synchronized boolean restart() throws IOException {
        if (isClosed()) {
            return false;
        }
        child = launch.start();
        return true;
    }

    private boolean live() {
        try {
            return HTTP.send(liveness, HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
        } catch (IOException e) {
            return false; // refused or timed out: unanswered
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** SIGTERM, then SIGKILL if it has not gone within 10 s: a wedged JVM may not finish its shutdown. */
    private static void kill(ChildJvm running) {
        Process process = running.process();
        process.destroy();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    private boolean isClosed() {
        return closed.getCount() == 0;
    }

    private void log(String event) {
        log.accept("ironflow: supervisor: " + name + " " + event);
    }

    /** From now on an exit is no failure and nothing is restarted; the running instance is left alone. */
    void stopSupervising() {
        closed.countDown();
    }

    /** Stops supervising, then stops the running instance. */
    @Override
    public void close() {
        ChildJvm last;
        synchronized (this) {
            stopSupervising();
            last = child;
        }
        if (last != null) {
            last.close();
        }
    }
}
