package io.ironflow.conductor.intents;

import io.ironflow.conductor.domain.NewNode;
import io.ironflow.conductor.domain.NodeNames;
import io.ironflow.conductor.domain.Rejection;
import io.ironflow.conductor.domain.hardware.Drivers;
import io.ironflow.conductor.messaging.NodeSnapshots;
import io.ironflow.conductor.persistence.NodeEntity;
import io.ironflow.conductor.work.NodeChange;
import io.ironflow.events.CreateNode;
import io.ironflow.events.NodeIntent;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.UUID;

/**
 * {@link CreateNode}: enrols a node under the intent's UUID; a driver this conductor does not have, or a node
 * {@link NewNode} refuses, is 400, a UUID or name already taken 409, and either changes nothing; 201.
 */
@ApplicationScoped
class CreateNodeHandler implements CommandHandler<CreateNode> {

    private final NodeEdits edits;

    CreateNodeHandler(NodeEdits edits) {
        this.edits = edits;
    }

    @Override
    public Class<CreateNode> command() {
        return CreateNode.class;
    }

    @Override
    public Uni<Outcome> apply(NodeIntent intent, CreateNode command, NodeEntity lockedNode) {
        UUID uuid = NodeNames.requireUuid(intent.getNodeUuid());
        if (command.getDriver() != null && !command.getDriver().isBlank()) { // a missing one: NewNode's 400
            Drivers.requireEnabled(command.getDriver());
        }
        NewNode node = new NewNode(uuid, command.getName(), command.getDriver(),
                NodeSnapshots.dict("driver_info", command.getDriverInfo()),
                NodeSnapshots.dict("properties", command.getProperties()),
                NodeSnapshots.dict("extra", command.getExtra()),
                NodeSnapshots.dict("instance_info", command.getInstanceInfo()),
                command.getResourceClass(), command.getOwner(), command.getLessee(), command.getDescription(),
                command.getAutomatedClean(), command.getConductorGroup(),
                NodeSnapshots.dict("network_data", command.getNetworkData()), command.getShard());
        return NodeEntity.<NodeEntity>findById(node.uuid()).flatMap(existing -> {
            if (existing != null) {
                throw Rejection.conflict("A node with UUID " + node.uuid() + " already exists.");
            }
            return NodeEntity.nameTaken(node.name());
        }).flatMap(taken -> {
            if (taken) {
                throw Rejection.conflict("A node with name " + node.name() + " already exists.");
            }
            NodeEntity entity = NodeEntity.enroll(node, edits.conductor(), Instant.now().truncatedTo(ChronoUnit.MILLIS));
            NodeChange change = new NodeChange(entity, intent.getIntentId(), intent.getRequester(), edits.conductor());
            change.enrolled();
            return entity.persist().flatMap(x -> change.announce()).replaceWith(Outcome.done(201, entity));
        });
    }
}
