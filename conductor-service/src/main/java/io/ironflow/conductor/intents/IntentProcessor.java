package io.ironflow.conductor.intents;

import io.ironflow.conductor.domain.NewNode;
import io.ironflow.conductor.domain.NodeNames;
import io.ironflow.conductor.domain.Rejection;
import io.ironflow.conductor.messaging.NodeSnapshots;
import io.ironflow.conductor.messaging.Outbox;
import io.ironflow.conductor.persistence.NodeEntity;
import io.ironflow.conductor.persistence.ProcessedIntent;
import io.ironflow.events.CreateNode;
import io.ironflow.events.IntentResult;
import io.ironflow.events.NodeEvent;
import io.ironflow.events.NodeIntent;
import io.ironflow.schemas.Topic;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.UUID;

/**
 * Applies one intent in one transaction: the change, the processed-intent record, and the outbox rows that
 * announce them (the intent result, the node-state snapshot, the node-event) commit together or not at all.
 * An intent seen before is answered again, not applied again.
 */
@ApplicationScoped
public class IntentProcessor {

    private final ConductorIdentity conductor;

    IntentProcessor(ConductorIdentity conductor) {
        this.conductor = conductor;
    }

    public Uni<Void> process(NodeIntent intent) {
        return Panache.withTransaction(() -> ProcessedIntent.<ProcessedIntent>findById(intent.getIntentId())
                .flatMap(previous -> previous != null ? answerAgain(intent, previous) : apply(intent)));
    }

    private Uni<Void> apply(NodeIntent intent) {
        Uni<Outcome> outcome;
        try {
            if (intent.getCommand() instanceof CreateNode create) {
                outcome = create(intent.getNodeUuid(), create);
            } else {
                throw new Rejection(501, "Command " + intent.getCommand().getClass().getSimpleName()
                        + " is not implemented by this conductor yet.");
            }
        } catch (Rejection rejection) {
            outcome = Uni.createFrom().failure(rejection);
        }
        return outcome
                .onFailure(Rejection.class).recoverWithUni(failure -> rejected(intent, (Rejection) failure))
                .flatMap(result -> record(intent, result));
    }

    private Uni<Outcome> create(String nodeUuid, CreateNode command) {
        NewNode node = new NewNode(NodeNames.requireUuid(nodeUuid), command.getName(), command.getDriver(),
                NodeSnapshots.dict("driver_info", command.getDriverInfo()),
                NodeSnapshots.dict("properties", command.getProperties()),
                NodeSnapshots.dict("extra", command.getExtra()),
                NodeSnapshots.dict("instance_info", command.getInstanceInfo()),
                command.getResourceClass(), command.getOwner(), command.getLessee(), command.getDescription(),
                command.getAutomatedClean(), command.getConductorGroup());
        return NodeEntity.<NodeEntity>findById(node.uuid()).flatMap(existing -> {
            if (existing != null) {
                throw Rejection.conflict("A node with UUID " + node.uuid() + " already exists.");
            }
            return NodeEntity.nameTaken(node.name());
        }).flatMap(taken -> {
            if (taken) {
                throw Rejection.conflict("A node with name " + node.name() + " already exists.");
            }
            NodeEntity entity = NodeEntity.enroll(node, conductor.name(), now());
            return entity.<NodeEntity>persist().map(Outcome::created);
        });
    }

    /** A refused intent changes nothing; its answer still carries the node as it is, when there is one. */
    private Uni<Outcome> rejected(NodeIntent intent, Rejection rejection) {
        Outcome outcome = Outcome.rejected(rejection);
        if (!NodeNames.isUuid(intent.getNodeUuid())) {
            return Uni.createFrom().item(outcome);
        }
        return NodeEntity.<NodeEntity>findById(UUID.fromString(intent.getNodeUuid())).map(outcome::withNode);
    }

    private Uni<Void> record(NodeIntent intent, Outcome outcome) {
        Instant now = now();
        ProcessedIntent processed = new ProcessedIntent();
        processed.intentId = intent.getIntentId();
        processed.nodeUuid = NodeNames.isUuid(intent.getNodeUuid()) ? UUID.fromString(intent.getNodeUuid()) : null;
        processed.accepted = outcome.accepted();
        processed.code = outcome.code();
        processed.errorMessage = outcome.errorMessage();
        processed.processedAt = now;
        String key = intent.getNodeUuid();
        Uni<?> written = processed.persist()
                .flatMap(p -> Outbox.append(Topic.INTENT_RESULTS, key, result(intent, outcome, now)));
        if (outcome.accepted() && outcome.node() != null) {
            written = written.flatMap(r -> Outbox.append(Topic.NODE_STATE, key, NodeSnapshots.of(outcome.node())));
            if (outcome.transition() != null) {
                written = written.flatMap(r -> Outbox.append(Topic.NODE_EVENTS, key, event(intent, outcome, now)));
            }
        }
        return written.replaceWithVoid();
    }

    private Uni<Void> answerAgain(NodeIntent intent, ProcessedIntent previous) {
        Uni<NodeEntity> node = previous.nodeUuid == null ? Uni.createFrom().nullItem() : NodeEntity.findById(previous.nodeUuid);
        return node.flatMap(current -> {
            Outcome outcome = new Outcome(previous.accepted, previous.code, previous.errorMessage, current, null, null);
            return Outbox.append(Topic.INTENT_RESULTS, intent.getNodeUuid(), result(intent, outcome, now()));
        }).replaceWithVoid();
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

    private NodeEvent event(NodeIntent intent, Outcome outcome, Instant now) {
        return NodeEvent.newBuilder()
                .setEventId(UUID.randomUUID().toString())
                .setNodeUuid(intent.getNodeUuid())
                .setFromState(outcome.fromState())
                .setEvent(outcome.transition())
                .setToState(outcome.node().provisionState)
                .setIntentId(intent.getIntentId())
                .setConductor(conductor.name())
                .setOccurredAt(now)
                .build();
    }

    private static Instant now() {
        return Instant.now().truncatedTo(ChronoUnit.MILLIS);
    }
}
