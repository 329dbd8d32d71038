package io.ironflow.conductor.intents;

import io.ironflow.conductor.domain.NodeNames;
import io.ironflow.conductor.domain.Rejection;
import io.ironflow.conductor.messaging.NodeSnapshots;
import io.ironflow.conductor.messaging.Outbox;
import io.ironflow.conductor.persistence.NodeEntity;
import io.ironflow.conductor.persistence.ProcessedIntent;
import io.ironflow.conductor.work.NodeWork;
import io.ironflow.events.IntentResult;
import io.ironflow.events.NodeIntent;
import io.ironflow.events.ValidateNode;
import io.ironflow.schemas.Topic;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.UUID;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Applies one intent in one transaction: the change, the processed-intent record, and the outbox rows that
 * announce them (the intent result, the node-state snapshot, the node-events) commit together or not at all.
 * An intent seen before is answered again, not applied again. A node reserved by running work is retried a few
 * times (Ironic: 3 x 1 s) before the intent is answered NodeLocked.
 */
@ApplicationScoped
public class IntentProcessor {

    private final ConductorIdentity conductor;
    private final NodeCommands commands;
    private final NodeWork work;
    private final int lockRetries;
    private final Duration lockRetryInterval;
    @Inject
    NodeValidation validation;

    IntentProcessor(ConductorIdentity conductor, NodeCommands commands, NodeWork work,
            @ConfigProperty(name = "ironflow.conductor.node-locked-retry-attempts") int lockRetries,
            @ConfigProperty(name = "ironflow.conductor.node-locked-retry-interval") Duration lockRetryInterval) {
        this.conductor = conductor;
        this.commands = commands;
        this.work = work;
        this.lockRetries = lockRetries;
        this.lockRetryInterval = lockRetryInterval;
    }

    public Uni<Void> process(NodeIntent intent) {
        if (intent.getCommand() instanceof ValidateNode) {
            return validation.answer(intent); // a pure read: no reservation, no processed-intent record
        }
        return attempt(intent, 1).invoke(outcome -> {
            if (outcome != null && outcome.callBackAt() != null) {
                work.scheduleCallBack(outcome.node().uuid, outcome.callBackAt());
            }
        }).replaceWithVoid();
    }

    private Uni<Outcome> attempt(NodeIntent intent, int attempt) {
        return Panache.withTransaction(() -> ProcessedIntent.<ProcessedIntent>findById(intent.getIntentId())
                        .flatMap(previous -> previous != null ? answerAgain(intent, previous) : apply(intent)))
                .onFailure(NodeBusy.class).recoverWithUni(busy -> attempt < lockRetries
                        ? Uni.createFrom().voidItem().onItem().delayIt().by(lockRetryInterval).flatMap(x -> attempt(intent, attempt + 1))
                        : Panache.withTransaction(() -> rejected(intent, ((NodeBusy) busy).asRejection())
                                .flatMap(outcome -> record(intent, outcome))));
    }

    private Uni<Outcome> apply(NodeIntent intent) {
        Uni<Outcome> outcome;
        try {
            outcome = commands.apply(intent);
        } catch (Rejection rejection) {
            outcome = Uni.createFrom().failure(rejection);
        }
        return outcome
                .onFailure(Rejection.class).recoverWithUni(failure -> rejected(intent, (Rejection) failure))
                .flatMap(result -> record(intent, result));
    }

    /** A refused intent changes nothing; its answer still carries the node as it is, when there is one. */
    private Uni<Outcome> rejected(NodeIntent intent, Rejection rejection) {
        Outcome outcome = Outcome.rejected(rejection);
        if (!NodeNames.isUuid(intent.getNodeUuid())) {
            return Uni.createFrom().item(outcome);
        }
        return Panache.getSession().invoke(session -> session.clear()) // drop whatever the refused command touched
                .flatMap(session -> NodeEntity.<NodeEntity>findById(UUID.fromString(intent.getNodeUuid())))
                .map(outcome::withNode);
    }

    private Uni<Outcome> record(NodeIntent intent, Outcome outcome) {
        Instant now = now();
        ProcessedIntent processed = new ProcessedIntent();
        processed.intentId = intent.getIntentId();
        processed.nodeUuid = NodeNames.isUuid(intent.getNodeUuid()) ? UUID.fromString(intent.getNodeUuid()) : null;
        processed.accepted = outcome.accepted();
        processed.code = outcome.code();
        processed.errorMessage = outcome.errorMessage();
        processed.processedAt = now;
        return processed.persist()
                .flatMap(p -> Outbox.append(Topic.INTENT_RESULTS, intent.getNodeUuid(), result(intent, outcome, now)))
                .replaceWith(outcome);
    }

    private Uni<Outcome> answerAgain(NodeIntent intent, ProcessedIntent previous) {
        Uni<NodeEntity> node = previous.nodeUuid == null ? Uni.createFrom().nullItem() : NodeEntity.findById(previous.nodeUuid);
        return node.flatMap(current -> {
            Outcome outcome = new Outcome(previous.accepted, previous.code, previous.errorMessage, current, null);
            return Outbox.append(Topic.INTENT_RESULTS, intent.getNodeUuid(), result(intent, outcome, now())).replaceWith((Outcome) null);
        });
    }

    private IntentResult result(NodeIntent intent, Outcome outcome, Instant now) {
        return IntentResult.newBuilder()
                .setIntentId(intent.getIntentId())
                .setNodeUuid(intent.getNodeUuid())
                .setAccepted(outcome.accepted())
                .setCode(outcome.code())
                .setErrorMessage(outcome.errorMessage())
                .setNode(outcome.node() == null ? null : NodeSnapshots.of(outcome.node()))
                .setConductor(conductor.name())
                .setCompletedAt(now)
                .build();
    }

    private static Instant now() {
        return Instant.now().truncatedTo(ChronoUnit.MILLIS);
    }
}
