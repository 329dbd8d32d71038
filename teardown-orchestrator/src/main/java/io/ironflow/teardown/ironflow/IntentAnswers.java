package io.ironflow.teardown.ironflow;

import io.smallrye.common.annotation.NonBlocking;
import jakarta.enterprise.context.ApplicationScoped;
import org.apache.avro.generic.GenericRecord;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.eclipse.microprofile.reactive.messaging.Incoming;

/**
 * The conductor's answers to the intents this instance sends, read from ironflow.intent-results (a consumer group
 * of this instance's own, from the end; results of other senders' intents are passed over). A caller says which
 * intent it waits for before sending it ({@link #expect}), looks whether it was answered ({@link #answer}) while it
 * follows the node, and forgets it after. Results are read as generic records (the fields of {@code IntentResult}
 * this needs), so no generated class has to be loaded on the consumer's thread. An answer that arrives while
 * nobody waits is dropped: the node itself still shows what happened, so a missed answer only means a refusal is
 * noticed at the caller's deadline. Every result of every sender passes here, a poll at a time (a batch channel:
 * the connector's per-record pipeline cost ten times the lookups), and handling one is a map lookup, so
 * it runs on the connector's event loop ({@code @NonBlocking}): a void method would be taken for blocking and each
 * result handed to a worker thread.
 */
@ApplicationScoped
public class IntentAnswers {

    /** The conductor's answer: accepted, or refused with its code and reason. */
    public record Answer(boolean accepted, int code, String errorMessage) {
    }

    private static final String RESULT_SCHEMA = "io.ironflow.events.IntentResult";

    private final Map<String, Optional<Answer>> awaited = new ConcurrentHashMap<>();

    @Incoming("intent-results")
    @NonBlocking
    void answered(List<GenericRecord> results) {
        for (GenericRecord result : results) {
            // null: a record that did not decode; another schema: a record of another topic's type. Both passed over.
            if (result != null && RESULT_SCHEMA.equals(result.getSchema().getFullName())) {
                String intentId = result.get("intentId").toString();
                awaited.computeIfPresent(intentId, (id, none) -> Optional.of(answerIn(result)));
            }
        }
    }

    private static Answer answerIn(GenericRecord result) {
        Object error = result.get("errorMessage");
        return new Answer((Boolean) result.get("accepted"), (Integer) result.get("code"),
                error == null ? null : error.toString());
    }

    /** From now on, the answer to intent {@code intentId} is kept until {@link #forget}. */
    public void expect(String intentId) {
        awaited.putIfAbsent(intentId, Optional.empty());
    }

    /** The conductor's answer to {@code intentId}, once it came. */
    public Optional<Answer> answer(String intentId) {
        return awaited.getOrDefault(intentId, Optional.empty());
    }

    public void forget(String intentId) {
        awaited.remove(intentId);
    }
}
