package io.ironflow.conductor.intents;

import java.time.Duration;

/**
 * An attempt at an intent ran past its deadline; whatever it had begun is abandoned (and rolled back). A timeout,
 * so {@link io.ironflow.conductor.persistence.Failures} counts it as a failure worth a retry.
 */
final class IntentDeadlineExceeded extends java.util.concurrent.TimeoutException {

    IntentDeadlineExceeded(String intentId, Duration deadline) {
        super("intent " + intentId + " did not complete within " + deadline.toMillis() + " ms");
    }

    @Override
    public synchronized Throwable fillInStackTrace() {
        return this; // a deadline, not a bug: where it was thrown says nothing
    }
}
