package io.ironflow.conductor.intents;

import java.time.Duration;

/** An attempt at an intent ran past its deadline; whatever it had begun is abandoned (and rolled back). */
final class IntentDeadlineExceeded extends RuntimeException {

    IntentDeadlineExceeded(String intentId, Duration deadline) {
        super("intent " + intentId + " did not complete within " + deadline.toMillis() + " ms", null, false, false);
    }
}
