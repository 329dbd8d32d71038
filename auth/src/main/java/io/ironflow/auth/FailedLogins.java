package io.ironflow.auth;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongSupplier;

/**
 * Failed logins per client address and per user name, each counted in a fixed window that starts at its first
 * failure: once either is at its limit, further attempts are refused before bcrypt runs, until the window ends.
 * An attempt is counted when it starts ({@link #begin}) and given back when it succeeds ({@link #succeeded}), so
 * 500 concurrent guesses cannot all pass the check before the first one fails. Keys not seen for a window are
 * forgotten; at most {@code size} of each are kept (an attacker inventing user names evicts its own).
 */
final class FailedLogins {

    /** Why an attempt is refused, and in how many seconds the window that refused it ends. */
    record Refusal(String message, long retryAfterSeconds) {
    }

    private final int perClient;
    private final int perUser;
    private final long windowNanos;
    private final LongSupplier clock;
    private final Cache<String, Window> windows;

    FailedLogins(int perClient, int perUser, Duration window, long size, LongSupplier clock) {
        this.perClient = perClient;
        this.perUser = perUser;
        this.windowNanos = window.toNanos();
        this.clock = clock;
        this.windows = Caffeine.newBuilder().expireAfterWrite(window).maximumSize(2 * size).build();
    }

    /**
     * Counts an attempt of {@code user} from {@code client}, or refuses it (counting nothing) when either has used
     * up its window's failures.
     */
    synchronized Refusal begin(String client, String user) {
        Window byClient = window("client " + client);
        Window byUser = window("user " + user);
        if (byClient.failures.get() >= perClient) {
            return refusal("from this client", byClient);
        }
        if (byUser.failures.get() >= perUser) {
            return refusal("for this user", byUser);
        }
        byClient.failures.incrementAndGet();
        byUser.failures.incrementAndGet();
        return null;
    }

    /** Gives back the attempt {@link #begin} counted: it was not a failure. */
    synchronized void succeeded(String client, String user) {
        giveBack("client " + client);
        giveBack("user " + user);
    }

    private void giveBack(String key) {
        Window window = windows.getIfPresent(key);
        if (window != null) {
            window.failures.updateAndGet(n -> Math.max(0, n - 1));
        }
    }

    private Window window(String key) {
        long now = clock.getAsLong();
        Window window = windows.get(key, k -> new Window(now));
        if (now - window.started >= windowNanos) {
            window = new Window(now);
            windows.put(key, window);
        }
        return window;
    }

    private Refusal refusal(String whose, Window window) {
        long left = windowNanos - (clock.getAsLong() - window.started);
        long seconds = Math.max(1, (left + 999_999_999L) / 1_000_000_000L);
        return new Refusal("Too many failed logins " + whose + "; retry after " + seconds + " s", seconds);
    }

    /** One key's failures since {@code started} (System.nanoTime). */
    private static final class Window {
        final long started;
        final AtomicInteger failures = new AtomicInteger();

        Window(long started) {
            this.started = started;
        }
    }
}
