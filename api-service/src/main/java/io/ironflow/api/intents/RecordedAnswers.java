package io.ironflow.api.intents;

import io.ironflow.events.IntentResult;
import io.smallrye.mutiny.Uni;

/**
 * The answers conductors recorded with the changes they made (the processed intents), for a write whose answer did
 * not reach the API in time: what is recorded there happened, whether or not its result was ever published.
 */
public interface RecordedAnswers {

    /** The answer recorded for {@code intentId}, with its node as it is now; null when none is recorded. */
    Uni<IntentResult> find(String intentId);
}
