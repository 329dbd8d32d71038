package io.ironflow.dashboard;

import jakarta.enterprise.context.ApplicationScoped;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The open event streams ({@code GET /api/stream}), at most {@code ironflow.dashboard.max-streams} at once: each
 * holds a connection and a ticking timer for as long as its page stays open, so without a cap a client opening
 * streams in a loop would exhaust the dashboard's connections and memory. A stream over the cap is answered 503.
 */
@ApplicationScoped
public class StreamSlots {

    private final int max;
    private final AtomicInteger open = new AtomicInteger();

    StreamSlots(@ConfigProperty(name = "ironflow.dashboard.max-streams", defaultValue = "64") int max) {
        this.max = max;
    }

    /** Takes a slot, or false when all {@link #max()} are taken. */
    boolean tryOpen() {
        return open.getAndUpdate(n -> n < max ? n + 1 : n) < max;
    }

    /** Gives a slot back: once per successful {@link #tryOpen}. */
    void closed() {
        open.decrementAndGet();
    }

    int max() {
        return max;
    }
}
