package io.ironflow.conductor.intents;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ironflow.conductor.domain.hardware.Drivers;
import io.ironflow.conductor.domain.Rejection;
import io.ironflow.conductor.domain.hardware.DriverInterfaces;
import io.ironflow.conductor.messaging.NodeSnapshots;
import io.ironflow.conductor.messaging.Outbox;
import io.ironflow.conductor.persistence.NodeEntity;
import io.ironflow.conductor.work.ConductorIdentity;
import io.ironflow.events.IntentResult;
import io.ironflow.events.NodeIntent;
import io.ironflow.schemas.Topic;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.time.temporal.ChronoUnit;

/**
 * Answers {@code ValidateNode} (Ironic's {@code validate_driver_interfaces}, which the API asks its conductor
 * over RPC): each interface of the node's driver checks what it needs, and the answer carries Ironic's validate
 * document in {@code IntentResult.validation}; a node whose hardware someone else holds (a OneView user, by the
 * facts the node carries: see {@code OneViewHardware}) fails power and management. A pure read: the node is
 * loaded without a lock (a validation never waits behind a writer of the node), neither reserved nor changed,
 * and no processed-intent record is kept; a redelivered ValidateNode is simply answered again, from the node as
 * it is.
 * The answer still leaves through the outbox, so it is ordered after every earlier answer for the node.
 */
@ApplicationScoped
public class NodeValidation {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final ConductorIdentity conductor;
    private final IntentAuthorization authorization;

    NodeValidation(ConductorIdentity conductor, IntentAuthorization authorization) {
        this.conductor = conductor;
        this.authorization = authorization;
    }

    Uni<Void> answer(NodeIntent intent) {
        return Panache.withTransaction(() -> authorization.forRead(intent)
                .map(node -> result(intent, node))
                .onFailure(Rejection.class).recoverWithItem(refused -> refused(intent, (Rejection) refused))
                .flatMap(result -> Outbox.append(Topic.INTENT_RESULTS, intent.getNodeUuid(), result)))
                .replaceWithVoid();
    }

    private IntentResult refused(NodeIntent intent, Rejection refusal) {
        return IntentResult.newBuilder().setIntentId(intent.getIntentId()).setNodeUuid(intent.getNodeUuid())
                .setConductor(conductor.name()).setCompletedAt(Instant.now().truncatedTo(ChronoUnit.MILLIS))
                .setAccepted(false).setCode(refusal.code()).setErrorMessage(refusal.getMessage()).build();
    }

    private IntentResult result(NodeIntent intent, NodeEntity node) {
        IntentResult.Builder result = IntentResult.newBuilder()
                .setIntentId(intent.getIntentId())
                .setNodeUuid(intent.getNodeUuid())
                .setConductor(conductor.name())
                .setCompletedAt(Instant.now().truncatedTo(ChronoUnit.MILLIS));
        if (node == null) {
            return result.setAccepted(false).setCode(404).setErrorMessage("Node " + intent.getNodeUuid() + " could not be found.")
                    .build();
        }
        try {
            var driver = Drivers.get(node.driver);
            var document = DriverInterfaces.validate(driver, node.driverInfo, driver.validateOwnership(node.uuid.toString(),
                    node.driverInfo, node.driverInternalInfo, node.targetProvisionState));
            return result.setAccepted(true).setCode(200).setValidation(JSON.writeValueAsString(document))
                    .setNode(authorization.readable(intent, true, NodeSnapshots.of(node))).build();
        } catch (Rejection refused) {
            return result.setAccepted(false).setCode(refused.code()).setErrorMessage(refused.getMessage()).build();
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
