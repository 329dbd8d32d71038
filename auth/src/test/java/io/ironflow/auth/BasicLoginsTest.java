package io.ironflow.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ironflow.policy.Principal;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * http_basic's logins (issue 58): bcrypt never runs on the event loop, a verified password is remembered by its
 * hash so the next request skips bcrypt, failed logins are refused (429) before bcrypt once over the limit, and an
 * unknown user costs a bcrypt as a known one does.
 */
class BasicLoginsTest {

    private static final int COST = 10; // htpasswd -B's default: tens of milliseconds a check

    private final Vertx vertx = Vertx.vertx();

    @AfterEach
    void close() throws Exception {
        vertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }

    @Test
    void bcryptLeavesTheEventLoopFree() throws Exception {
        BasicLogins logins = logins(users(), 100, 100);
        CompletableFuture<Long> timerLate = new CompletableFuture<>();
        List<Future<Principal>> guesses = new ArrayList<>();
        vertx.runOnContext(v -> {
            for (int i = 0; i < 40; i++) {
                guesses.add(logins.authenticate(vertx, basic("alice", "guess-" + i), "10.0.0." + i));
            }
            long asked = System.nanoTime();
            // the same event loop: it runs at once unless bcrypt is holding the loop (40 checks: about a second)
            vertx.setTimer(1, id -> timerLate.complete(System.nanoTime() - asked));
        });
        long late = timerLate.get(60, TimeUnit.SECONDS);
        assertTrue(late < Duration.ofMillis(200).toNanos(), "the event loop was held " + Duration.ofNanos(late).toMillis() + " ms");
        for (Future<Principal> guess : guesses) {
            Throwable cause = guess.toCompletionStage().toCompletableFuture().handle((p, e) -> e).get(60, TimeUnit.SECONDS);
            assertInstanceOf(Unauthenticated.class, cause.getCause() != null ? cause.getCause() : cause);
        }
    }

    @Test
    void aVerifiedPasswordIsRememberedByItsHashOnly() throws Exception {
        BasicLogins logins = logins(users(), 100, 100);
        assertEquals("alice", login(logins, "alice", "alice-secret", "10.0.0.1").user());
        long started = System.nanoTime();
        for (int i = 0; i < 20; i++) {
            assertEquals("alice", login(logins, "alice", "alice-secret", "10.0.0.1").user());
        }
        long twenty = System.nanoTime() - started;
        assertTrue(twenty < Duration.ofMillis(300).toNanos(), "20 remembered logins took " + Duration.ofNanos(twenty).toMillis() + " ms");
        String key = VerifiedCredentials.key(new BasicCredentials("alice", "alice-secret"));
        assertTrue(key.matches("[0-9a-f]{64}") && !key.contains("alice"), key);
        assertFalse(key.equals(VerifiedCredentials.key(new BasicCredentials("alice", "alice-secreT"))));
        assertFalse(key.equals(VerifiedCredentials.key(new BasicCredentials("alic", "ealice-secret"))));
    }

    @Test
    void failedLoginsOverTheLimitAre429WithoutBcrypt() throws Exception {
        BasicLogins logins = logins(users(), 3, 100);
        for (int i = 0; i < 3; i++) {
            assertInstanceOf(Unauthenticated.class, failure(logins, "alice", "guess-" + i, "10.0.0.1"));
        }
        long started = System.nanoTime();
        Throwable refused = failure(logins, "alice", "alice-secret", "10.0.0.1");
        assertInstanceOf(TooManyLogins.class, refused, "even the right password waits for the window");
        assertTrue(System.nanoTime() - started < Duration.ofMillis(20).toNanos(), "refused before bcrypt");
        assertTrue(((TooManyLogins) refused).retryAfterSeconds() > 0);
    }

    @Test
    void anUnknownUserCostsABcryptAsAKnownOneDoes() throws Exception {
        Htpasswd users = users();
        long known = Long.MAX_VALUE;
        long unknown = Long.MAX_VALUE;
        for (int i = 0; i < 5; i++) {
            known = Math.min(known, timeToRefuse(users, "alice"));
            unknown = Math.min(unknown, timeToRefuse(users, "mallory"));
        }
        assertTrue(unknown > known / 2, "an unknown user is refused in " + Duration.ofNanos(unknown).toMillis()
                + " ms, a wrong password in " + Duration.ofNanos(known).toMillis() + " ms");
    }

    private static long timeToRefuse(Htpasswd users, String user) {
        long started = System.nanoTime();
        try {
            users.verify(user, "wrong");
            throw new AssertionError(user + " was accepted");
        } catch (Unauthenticated expected) {
            return System.nanoTime() - started;
        }
    }

    private BasicLogins logins(Htpasswd users, int failuresPerClient, int failuresPerUser) {
        return new BasicLogins(users, new VerifiedCredentials(Duration.ofSeconds(60), 100),
                new FailedLogins(failuresPerClient, failuresPerUser, Duration.ofSeconds(60), 100, System::nanoTime), 2, 1000);
    }

    private Principal login(BasicLogins logins, String user, String password, String client) throws Exception {
        CompletableFuture<Principal> who = new CompletableFuture<>();
        vertx.runOnContext(v -> logins.authenticate(vertx, basic(user, password), client)
                .onSuccess(who::complete).onFailure(who::completeExceptionally));
        return who.get(60, TimeUnit.SECONDS);
    }

    private Throwable failure(BasicLogins logins, String user, String password, String client) throws Exception {
        CompletableFuture<Throwable> cause = new CompletableFuture<>();
        vertx.runOnContext(v -> logins.authenticate(vertx, basic(user, password), client)
                .onComplete(result -> cause.complete(result.cause())));
        return cause.get(60, TimeUnit.SECONDS);
    }

    private static String basic(String user, String password) {
        return "Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
    }

    private static Htpasswd users() throws Exception {
        Path file = Files.createTempFile("ironflow-htpasswd", "");
        file.toFile().deleteOnExit();
        Files.writeString(file, "alice:" + HtpasswdHash.bcrypt("alice-secret", COST) + "\n");
        return Htpasswd.load(file, null);
    }
}
