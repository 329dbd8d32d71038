package io.ironflow.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * Failed logins are limited per client address and per user name in a window (issue 58: they were never
 * limited): attempts are counted when they start, given back when they succeed, refused with the seconds left in
 * the window once either count is at its limit, and allowed again when the window ends.
 */
class FailedLoginsTest {

    private final AtomicLong now = new AtomicLong();
    private final FailedLogins failures = new FailedLogins(3, 2, Duration.ofSeconds(60), 1000, now::get);

    @Test
    void aClientIsRefusedOnceItsFailuresAreUsedUpUntilTheWindowEnds() {
        assertNull(failures.begin("10.0.0.1", "a"));
        assertNull(failures.begin("10.0.0.1", "b"));
        assertNull(failures.begin("10.0.0.1", "c"));
        now.addAndGet(Duration.ofSeconds(20).toNanos());
        FailedLogins.Refusal refused = failures.begin("10.0.0.1", "d");
        assertNotNull(refused, "a fourth failure from one client");
        assertEquals(40, refused.retryAfterSeconds());
        assertTrue(refused.message().contains("from this client"), refused.message());
        assertNull(failures.begin("10.0.0.2", "d"), "another client is not concerned");
        now.addAndGet(Duration.ofSeconds(41).toNanos());
        assertNull(failures.begin("10.0.0.1", "e"), "a new window");
    }

    @Test
    void aUserIsRefusedFromEveryClientOnceItsFailuresAreUsedUp() {
        assertNull(failures.begin("10.0.0.1", "victim"));
        assertNull(failures.begin("10.0.0.2", "victim"));
        FailedLogins.Refusal refused = failures.begin("10.0.0.3", "victim");
        assertNotNull(refused, "guesses spread over clients still count for the user");
        assertTrue(refused.message().contains("for this user"), refused.message());
    }

    @Test
    void aSuccessGivesItsAttemptBack() {
        for (int i = 0; i < 10; i++) {
            assertNull(failures.begin("10.0.0.1", "alice"), "attempt " + i);
            failures.succeeded("10.0.0.1", "alice");
        }
    }
}
