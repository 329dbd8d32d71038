package io.ironflow.auth;

import io.ironflow.policy.Principal;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.WorkerExecutor;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * {@code http_basic} without bcrypt on the event loop: credentials verified within the cache's ttl are accepted at
 * the cost of a SHA-256; a client address or user name with too many failed logins is refused (429) before bcrypt
 * runs; the rest are verified on a small pool of worker threads of their own ({@code verify-threads}), at most
 * {@code max-waiting} of them queued, so a flood of bad logins costs those threads and never the threads that
 * serve every other request. Each answer completes on the caller's event loop.
 */
final class BasicLogins {

    private final Htpasswd users;
    private final VerifiedCredentials verified;
    private final FailedLogins failures;
    private final int threads;
    private final int maxWaiting;
    private final AtomicInteger waiting = new AtomicInteger();
    private volatile WorkerExecutor bcrypt;

    BasicLogins(Htpasswd users, AuthConfig.HttpBasic config) {
        this(users, new VerifiedCredentials(config.cacheTtl(), config.cacheSize()), new FailedLogins(
                config.failuresPerClient(), config.failuresPerUser(), config.failureWindow(), config.cacheSize(),
                System::nanoTime), config.verifyThreads(), config.maxWaiting());
    }

    BasicLogins(Htpasswd users, VerifiedCredentials verified, FailedLogins failures, int threads, int maxWaiting) {
        this.users = users;
        this.verified = verified;
        this.failures = failures;
        this.threads = threads;
        this.maxWaiting = maxWaiting;
    }

    /**
     * The principal {@code authorization} proves, {@link Unauthenticated} or {@link TooManyLogins}; call it on an
     * event loop of {@code vertx}.
     */
    Future<Principal> authenticate(Vertx vertx, String authorization, String client) {
        BasicCredentials credentials;
        try {
            credentials = BasicCredentials.parse(authorization);
        } catch (Unauthenticated e) {
            return Future.failedFuture(e);
        }
        Principal known = verified.get(credentials);
        if (known != null) {
            return Future.succeededFuture(known);
        }
        String user = credentials.user();
        FailedLogins.Refusal refused = failures.begin(client, user);
        if (refused != null) {
            return Future.failedFuture(new TooManyLogins(refused.message(), refused.retryAfterSeconds()));
        }
        if (waiting.incrementAndGet() > maxWaiting) {
            waiting.decrementAndGet();
            failures.succeeded(client, user); // not an attempt: nothing was checked
            return Future.failedFuture(new TooManyLogins("Too many logins are being checked; retry after 1 s", 1));
        }
        return executor(vertx).<Principal>executeBlocking(() -> {
            try {
                return users.verify(user, credentials.password());
            } finally {
                waiting.decrementAndGet();
            }
        }, false).onSuccess(who -> {
            verified.put(credentials, who);
            failures.succeeded(client, user);
        });
    }

    /** The bcrypt threads, made on first use: a shared worker pool of {@code threads}, apart from Quarkus' own. */
    private WorkerExecutor executor(Vertx vertx) {
        WorkerExecutor executor = bcrypt;
        if (executor == null) {
            synchronized (this) {
                if (bcrypt == null) {
                    bcrypt = vertx.createSharedWorkerExecutor("ironflow-bcrypt", threads);
                }
                executor = bcrypt;
            }
        }
        return executor;
    }
}
