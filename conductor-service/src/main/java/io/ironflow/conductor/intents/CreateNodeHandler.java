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
import io.ironflow.policy.HardwareAddresses;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.UUID;

/**
 * {@link CreateNode}: enrols a node under the intent's UUID; a driver this conductor does not have, or a node
 * {@link NewNode} refuses, is 400, a UUID, name or server hardware already taken 409, driver_info its principal may
 * not write ({@link HardwareWrites}) 403 or 400, and each changes nothing; 201.
 */
@ApplicationScoped
class CreateNodeHandler implements CommandHandler<CreateNode> {

    private final NodeEdits edits;
    private final HardwareWrites hardware;

    CreateNodeHandler(NodeEdits edits, HardwareWrites hardware) {
        this.edits = edits;
        this.hardware = hardware;
    }

    @Override
    public Class<CreateNode> command() {
        return CreateNode.class;
    }

    @Override
    public Uni<Outcome> apply(NodeIntent intent, CreateNode command, NodeEntity lockedNode) {
        NewNode node = newNode(intent, command);
        String serverHardware = serverHardware(node);
        Uni<Boolean> hardwareTaken = serverHardware == null ? Uni.createFrom().item(false)
                : NodeEntity.hardwareTaken(serverHardware, node.uuid());
        return NodeEntity.<NodeEntity>findById(node.uuid()).flatMap(existing -> existing != null
                        ? enrol(intent, node, true, false, false)
                        : NodeEntity.nameTaken(node.name()).flatMap(nameTaken -> hardwareTaken
                                .flatMap(taken -> enrol(intent, node, false, nameTaken, taken))))
                .call(outcome -> outcome.node().persist());
    }

    /** The server hardware {@code node}'s driver_info names (null: none), which no other node may have. */
    static String serverHardware(NewNode node) {
        return node.driverInfo() != null && node.driverInfo().get(HardwareAddresses.SERVER_HARDWARE_URI) instanceof String uri
                ? uri : null;
    }

    /** The node {@code command} enrols under the intent's UUID, once its driver and its fields pass: 400 otherwise. */
    NewNode newNode(NodeIntent intent, CreateNode command) {
        UUID uuid = NodeNames.requireUuid(intent.getNodeUuid());
        if (command.getDriver() != null && !command.getDriver().isBlank()) { // a missing one: NewNode's 400
            Drivers.requireEnabled(command.getDriver());
        }
        Map<String, Object> driverInfo = NodeSnapshots.dict("driver_info", command.getDriverInfo());
        hardware.requireMayCreate(intent, driverInfo);
        return new NewNode(uuid, command.getName(), command.getDriver(), driverInfo,
                NodeSnapshots.dict("properties", command.getProperties()),
                NodeSnapshots.dict("extra", command.getExtra()),
                NodeSnapshots.dict("instance_info", command.getInstanceInfo()),
                command.getResourceClass(), command.getOwner(), command.getLessee(), command.getDescription(),
                command.getAutomatedClean(), command.getConductorGroup(),
                NodeSnapshots.dict("network_data", command.getNetworkData()), command.getShard());
    }

    /**
     * Enrols {@code node}, given whether its UUID, its name and its server hardware are taken already (409, and
     * nothing changes): the
     * outcome's node is the new entity, not yet written (the caller persists it, or writes its row with the
     * answer), and its enrolment is announced (held for the answer's statement).
     */
    Uni<Outcome> enrol(NodeIntent intent, NewNode node, boolean uuidTaken, boolean nameTaken, boolean hardwareTaken) {
        if (uuidTaken) {
            return Uni.createFrom().failure(Rejection.conflict("A node with UUID " + node.uuid() + " already exists."));
        }
        if (nameTaken) {
            return Uni.createFrom().failure(Rejection.conflict("A node with name " + node.name() + " already exists."));
        }
        if (hardwareTaken) {
            return Uni.createFrom().failure(HardwareWrites.taken(serverHardware(node)));
        }
        NodeEntity entity = NodeEntity.enroll(node, edits.conductor(), Instant.now().truncatedTo(ChronoUnit.MILLIS));
        NodeChange change = new NodeChange(entity, intent.getIntentId(), intent.getRequester(), edits.conductor());
        change.enrolled();
        return change.announce().replaceWith(Outcome.done(201, entity));
    }
}
