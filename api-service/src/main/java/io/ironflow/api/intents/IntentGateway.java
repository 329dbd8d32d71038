package io.ironflow.api.intents;

import io.ironflow.api.errors.ApiError;
import io.ironflow.events.DeleteNode;
import io.ironflow.events.IntentResult;
import io.ironflow.events.NodeIntent;
import io.ironflow.intents.IntentSigner;
import io.ironflow.policy.IntentRules;
import io.ironflow.policy.Principal;
import io.smallrye.common.annotation.NonBlocking;
import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.MutinyEmitter;
import io.smallrye.reactive.messaging.kafka.api.OutgoingKafkaRecordMetadata;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;

/**
 * The API's only way to change a node: publish an intent keyed by the node's uuid and wait for the conductor's
 * result with the same intentId. The intent is signed with the API's intent key ({@code ironflow.intents.signing-key}),
 * which binds the caller's principal to this intent, node and command (docs/intents.md). A conductor that does not answer in time gets the client a 503, and clients
 * retry 503s, so the intent carries {@code notAfter}, a margin before the wait ends: a conductor that has not
 * started it by then refuses it. When the wait ends without an answer, the answer recorded with the change
 * ({@link RecordedAnswers}) is the client's if there is one; else the client gets a 503, which means nothing was
 * done (unless an attempt started just before notAfter commits later, which the message says).
 */
@ApplicationScoped
public class IntentGateway {

    /** How long the recorded answer of a write that timed out may take to read before the client gets its 503. */
    private static final Duration RECORD_READ_DEADLINE = Duration.ofSeconds(2);

    private final Map<String, CompletableFuture<IntentResult>> pending = new ConcurrentHashMap<>();
    private final MutinyEmitter<NodeIntent> intents;
    private final Duration timeout;
    private final Duration answerMargin;
    private final RecordedAnswers recorded;
    private final IntentSigner signer;

    IntentGateway(@Channel("node-intents") MutinyEmitter<NodeIntent> intents,
            @ConfigProperty(name = "ironflow.api.intent-timeout") Duration timeout,
            @ConfigProperty(name = "ironflow.api.intent-answer-margin") Duration answerMargin, RecordedAnswers recorded,
            @ConfigProperty(name = "ironflow.intents.signing-key") Path signingKey) {
        if (answerMargin.isNegative() || answerMargin.compareTo(timeout) >= 0) {
            throw new IllegalArgumentException("ironflow.api.intent-answer-margin (" + answerMargin
                    + ") must be at least 0 and shorter than ironflow.api.intent-timeout (" + timeout + ")");
        }
        this.intents = intents;
        this.timeout = timeout;
        this.answerMargin = answerMargin;
        this.recorded = recorded;
        this.signer = new IntentSigner(signingKey);
    }

    /**
     * Sends {@code command} for the node and answers with the conductor's result when it accepted the command.
     * A refusal fails with the conductor's code and message, which leave as Ironic's error body. The intent
     * carries {@code who}, on whose behalf it is sent; the conductor checks the policy again with it.
     */
    public Uni<IntentResult> submit(String nodeUuid, Object command, Principal who) {
        if (who.isService()) {
            // The conductor lets Ironflow's own services record what they did to the hardware where others may not
            // (a node in a transition, the room kept under the size limit). They send their intents to Kafka
            // themselves; an HTTP caller given one of their names must not borrow that.
            return Uni.createFrom().failure(new ApiError(403, "The user " + who.user() + " is reserved for Ironflow's own"
                    + " services, which send their intents to Kafka; it may not change nodes through the API."));
        }
        Instant now = Instant.now();
        Instant notAfter = now.plus(timeout).minus(answerMargin).truncatedTo(ChronoUnit.MILLIS);
        NodeIntent intent = NodeIntent.newBuilder()
                .setIntentId(UUID.randomUUID().toString())
                .setNodeUuid(nodeUuid)
                .setRequester(who.user())
                .setPrincipal(IntentRules.toAvro(who))
                .setRequestedAt(now)
                .setNotAfter(notAfter)
                .setCommand(command)
                .build();
        signer.sign(intent); // the conductor believes the principal only as this key signed it
        String intentId = intent.getIntentId();
        CompletableFuture<IntentResult> answer = new CompletableFuture<>();
        pending.put(intentId, answer); // before sending, so an early result is not missed
        Message<NodeIntent> message = Message.of(intent)
                .addMetadata(OutgoingKafkaRecordMetadata.<String>builder().withKey(nodeUuid).build());
        return intents.sendMessage(message)
                .onFailure().transform(e -> ApiError.unavailable("Cannot queue the request for node " + nodeUuid
                        + ": the message broker did not accept it (" + e.getMessage() + ")."))
                // a copy: the timeout cancels what it waits on, and the answer may still come while the record is read
                .flatMap(sent -> Uni.createFrom().completionStage(answer.copy()))
                .ifNoItem().after(timeout).recoverWithUni(() -> recordedAnswer(intent, answer))
                .map(IntentGateway::accepted)
                .eventually(() -> pending.remove(intentId))
                .emitOn(onContextOf(Vertx.currentContext()));
    }

    /**
     * No answer in time: the one recorded with the change, if a conductor made it (its result may be slow to come,
     * a conductor just restarted), or the result itself if it came while the record was read; else a 503. The
     * intent's notAfter has passed by then, so no conductor starts it any more; one still committing an attempt it
     * started before may yet finish it, which the message says. The read has a deadline of its own.
     */
    private Uni<IntentResult> recordedAnswer(NodeIntent intent, CompletableFuture<IntentResult> answer) {
        String unanswered = "No conductor answered request " + intent.getIntentId() + " for node " + intent.getNodeUuid()
                + " within " + timeout.toSeconds() + " s";
        String expiry = " A conductor that has not started it by " + intent.getNotAfter() + " refuses it, so it is not"
                + " applied unless one started it just before then; check the node before retrying a create that names"
                + " no uuid.";
        return recorded.find(intent.getIntentId())
                .ifNoItem().after(RECORD_READ_DEADLINE).fail()
                .onFailure().transform(unread -> ApiError.unavailable(unanswered + ", and whether one applied it cannot"
                        + " be read now (the node database is not reachable either)." + expiry))
                .map(found -> {
                    IntentResult arrived = answer.isDone() && !answer.isCompletedExceptionally() ? answer.join() : null;
                    if (arrived != null) {
                        return arrived;
                    }
                    if (found == null) {
                        throw ApiError.unavailable(unanswered + ", and none has recorded it." + expiry);
                    }
                    if (found.getAccepted() && found.getNode() == null && !(intent.getCommand() instanceof DeleteNode)) {
                        throw ApiError.notFound("Request " + intent.getIntentId() + " was applied to node "
                                + intent.getNodeUuid() + ", which has been deleted since.");
                    }
                    return found;
                });
    }

    /**
     * The answer, a refusal or the timeout arrive on the Kafka connector's event loop or a timer thread; the
     * request goes on where it was received, on its own Vert.x context, where its request scope (the requested
     * microversion), its MDC and its span live. So no thread context has to be captured and restored around
     * every callback (the API, like the conductor, loads no Mutiny context-propagation decorator).
     */
    private static Executor onContextOf(Context caller) {
        return caller == null ? Runnable::run : task -> caller.runOnContext(ignored -> task.run());
    }

    private static IntentResult accepted(IntentResult result) {
        if (!result.getAccepted()) {
            throw new ApiError(result.getCode(), result.getErrorMessage() != null ? result.getErrorMessage()
                    : "The conductor refused request " + result.getIntentId() + " (" + result.getCode() + ").");
        }
        return result;
    }

    /**
     * Completes the waiting requests of a poll's results, those this instance sent. The channel is a batch one
     * ({@code intent-results.batch}): every API instance reads every sender's results, so the connector's
     * per-record pipeline, not this map lookup, was the cost. It only completes futures, so it runs on the
     * connector's event loop: a void method is taken for blocking and each poll would be handed to a worker
     * thread and back.
     */
    @Incoming("intent-results")
    @NonBlocking
    public void onResults(List<IntentResult> results) {
        // Read as objects: a record that decodes to another type (a node snapshot written to the wrong topic) is
        // passed over like one that does not decode (null), instead of failing the channel with a cast.
        for (Object record : (List<?>) results) {
            if (record instanceof IntentResult result) {
                CompletableFuture<IntentResult> answer = pending.get(result.getIntentId());
                if (answer != null) {
                    answer.complete(result);
                }
            }
        }
    }
}
