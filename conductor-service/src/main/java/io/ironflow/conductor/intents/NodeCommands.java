package io.ironflow.conductor.intents;

import io.ironflow.conductor.domain.Drivers;
import io.ironflow.conductor.domain.NewNode;
import io.ironflow.conductor.domain.NodeNames;
import io.ironflow.conductor.domain.NodePatch;
import io.ironflow.conductor.domain.NodeSettings;
import io.ironflow.conductor.domain.Operation;
import io.ironflow.conductor.domain.ProvisionEvent;
import io.ironflow.conductor.domain.ProvisionRequest;
import io.ironflow.conductor.domain.ProvisionState;
import io.ironflow.conductor.domain.Rejection;
import io.ironflow.conductor.domain.Traits;
import io.ironflow.conductor.domain.hardware.FakeHardwareRecord;
import io.ironflow.conductor.domain.hardware.HardwareDriver;
import io.ironflow.conductor.domain.hardware.OneViewHardware;
import io.ironflow.conductor.domain.hardware.ManualClean;
import io.ironflow.conductor.domain.hardware.StepResult;
import io.ironflow.conductor.messaging.NodeSnapshots;
import io.ironflow.conductor.messaging.Outbox;
import io.ironflow.conductor.persistence.NodeEntity;
import io.ironflow.conductor.work.NodeChange;
import io.ironflow.conductor.work.NodeWork;
import io.ironflow.events.AttachVif;
import io.ironflow.conductor.work.OneViewPower;
import io.ironflow.conductor.work.OneViewPowerSync;
import io.ironflow.events.ChangePowerState;
import io.ironflow.events.ObserveServerHardware;
import io.ironflow.events.ChangeTraits;
import io.ironflow.events.CreateNode;
import io.ironflow.events.CreatePort;
import io.ironflow.events.CreatePortgroup;
import io.ironflow.events.DeletePortgroup;
import io.ironflow.events.UpdatePortgroup;
import io.ironflow.events.DeleteNode;
import io.ironflow.events.DeletePort;
import io.ironflow.events.DetachVif;
import io.ironflow.events.NodeIntent;
import io.ironflow.events.ProvisionAction;
import io.ironflow.events.SetBootMode;
import io.ironflow.events.SetMaintenance;
import io.ironflow.events.SetSecureBoot;
import io.ironflow.events.UpdateNode;
import io.ironflow.events.UpdatePort;
import io.ironflow.schemas.Topic;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.LockModeType;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.Consumer;
import java.util.function.Function;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.hibernate.reactive.common.AffectedEntities;

/**
 * What each intent command does to a node, inside the intent's transaction. Every check runs before the node
 * is reserved or touched, so a refused command changes nothing. Changes other than provision work take the
 * reservation and give it back in the same transaction.
 */
@ApplicationScoped
public class NodeCommands {

    private static final Set<String> POWER_TARGETS = Set.of(HardwareDriver.POWER_ON, HardwareDriver.POWER_OFF,
            HardwareDriver.REBOOTING, HardwareDriver.SOFT_POWER_OFF, HardwareDriver.SOFT_REBOOTING);
    /** Ironic's DELETE_ALLOWED_STATES, with available allowed ([conductor]allow_deleting_available_nodes). */
    private static final Set<ProvisionState> DELETE_ALLOWED = Set.of(ProvisionState.ENROLL, ProvisionState.MANAGEABLE,
            ProvisionState.AVAILABLE, ProvisionState.ADOPT_FAILED);

    private static final AffectedEntities NODES = new AffectedEntities(NodeEntity.class);

    private final ConductorIdentity conductor;
    private final NodeWork work;

    private final Duration oneViewPowerTimeout;
    private final OneViewPowerSync powerSync;

    NodeCommands(ConductorIdentity conductor, NodeWork work,
            @ConfigProperty(name = "ironflow.conductor.oneview-power-timeout", defaultValue = "120s") Duration oneViewPowerTimeout,
            OneViewPowerSync powerSync) {
        this.conductor = conductor;
        this.work = work;
        this.oneViewPowerTimeout = oneViewPowerTimeout;
        this.powerSync = powerSync;
    }

    Uni<Outcome> apply(NodeIntent intent) {
        Object command = intent.getCommand();
        if (command instanceof CreateNode create) {
            return create(intent, create);
        }
        UUID uuid = NodeNames.requireUuid(intent.getNodeUuid());
        // The row lock serialises this transaction with every other writer of the node (call-backs, periodic
        // tasks, another conductor); the reservation column says whether a longer-running holder has it.
        return NodeEntity.<NodeEntity>findById(uuid, LockModeType.PESSIMISTIC_WRITE).flatMap(node -> {
            if (node == null) {
                throw Rejection.notFound("Node " + uuid + " could not be found.");
            }
            NodeChange change = new NodeChange(node, intent.getIntentId(), intent.getRequester(), conductor.name());
            if (command instanceof ProvisionAction action) {
                return provision(change, action);
            } else if (command instanceof ChangePowerState power) {
                return power(change, power);
            } else if (command instanceof SetMaintenance maintenance) {
                return whileReserved(change, n -> maintenance(n, maintenance), 202);
            } else if (command instanceof UpdateNode update) {
                return update(change, update);
            } else if (command instanceof DeleteNode) {
                return delete(change);
            } else if (command instanceof ChangeTraits traits) {
                List<String> after = Traits.apply(node.uuid.toString(), List.of(node.traits), traits.getOperation(), traits.getTraits());
                return whileReserved(change, n -> n.traits = after.toArray(String[]::new), 200);
            } else if (command instanceof SetBootMode bootMode) {
                NodeSettings.requireValidBootMode(bootMode.getTarget());
                return whileReserved(change, n -> ManagementSettings.setBootMode(n, bootMode.getTarget()), 202);
            } else if (command instanceof SetSecureBoot secureBoot) {
                return whileReserved(change, n -> ManagementSettings.setSecureBoot(n, secureBoot.getTarget()), 202);
            } else if (command instanceof CreatePort port) {
                return whileReservedAsync(change, n -> PortCommands.create(n, port), 201);
            } else if (command instanceof UpdatePort port) {
                return whileReservedAsync(change, n -> PortCommands.update(n, port), 200);
            } else if (command instanceof DeletePort port) {
                return whileReservedAsync(change, n -> PortCommands.delete(n, port), 204);
            } else if (command instanceof AttachVif vif) {
                return whileReservedAsync(change, n -> PortCommands.attachVif(n, vif), 204);
            } else if (command instanceof DetachVif vif) {
                return whileReservedAsync(change, n -> PortCommands.detachVif(n, vif), 204);
            } else if (command instanceof CreatePortgroup portgroup) {
                return whileReservedAsync(change, n -> PortgroupCommands.create(n, portgroup), 201);
            } else if (command instanceof UpdatePortgroup portgroup) {
                return whileReservedAsync(change, n -> PortgroupCommands.update(n, portgroup), 200);
            } else if (command instanceof DeletePortgroup portgroup) {
                return whileReservedAsync(change, n -> PortgroupCommands.delete(n, portgroup), 204);
            } else if (command instanceof ObserveServerHardware observed) {
                return observe(change, observed);
            }
            throw new Rejection(501, "Command " + command.getClass().getSimpleName() + " is not supported.");
        });
    }

    private Uni<Outcome> create(NodeIntent intent, CreateNode command) {
        NewNode node = new NewNode(NodeNames.requireUuid(intent.getNodeUuid()), command.getName(), command.getDriver(),
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
            NodeEntity entity = NodeEntity.enroll(node, conductor.name(), now());
            NodeChange change = new NodeChange(entity, intent.getIntentId(), intent.getRequester(), conductor.name());
            change.enrolled();
            return entity.persist().flatMap(x -> change.announce()).replaceWith(Outcome.done(201, entity));
        });
    }

    private Uni<Outcome> provision(NodeChange change, ProvisionAction action) {
        NodeEntity node = change.node();
        ProvisionState state = change.state();
        String cleanSteps = action.getCleanSteps();
        ProvisionRequest.NodeFacts idle = new ProvisionRequest.NodeFacts(node.uuid.toString(), state, null,
                node.maintenance, node.retired);
        ProvisionRequest.Start start;
        try {
            start = ProvisionRequest.decide(idle, action.getTarget(), cleanSteps != null, action.getRescuePassword());
        } catch (Rejection refused) {
            if (node.reservation != null && refused.code() == 400) {
                throw new NodeBusy(node.uuid.toString(), node.reservation).asRejection(); // Ironic: 409 for a node being worked on
            }
            throw refused;
        }
        if (cleanSteps != null) {
            ManualClean.parse(cleanSteps); // the schema is checked now (400); the driver's catalogue when cleaning runs
        }
        return reserve(node).map(x -> {
            node.lastError = null;
            if (start.event() == ProvisionEvent.ABORT && state == ProvisionState.CLEAN_WAIT && !abortableNow(node)) {
                // Ironic: a step that cannot be interrupted finishes first; the abort takes effect after it.
                work.abortAfterStep(node);
                node.reservation = null;
                change.touched();
                return Outcome.done(202, node);
            }
            ProvisionState entered = change.fire(start.event());
            node.targetProvisionState = start.target() == null ? entered.targetOnEntry(null) : start.target().wire();
            if (start.event() == ProvisionEvent.ABORT) {
                work.aborted(node, state);
            }
            boolean working = Operation.of(entered).map(op -> op.working() == entered).orElse(false);
            if (working) {
                work.prepare(node, cleanSteps);
                return Outcome.parked(node, work.run(change)); // null unless a step parked the node
            }
            node.reservation = null;
            return Outcome.done(202, node);
        }).call(change::announce);
    }

    private static boolean abortableNow(NodeEntity node) {
        return node.cleanStep == null || Boolean.TRUE.equals(node.cleanStep.get("abortable"));
    }

    private Uni<Outcome> power(NodeChange change, ChangePowerState command) {
        String target = command.getTarget();
        if (!POWER_TARGETS.contains(target)) {
            throw Rejection.badRequest("Invalid input for field/attribute target. Value: '" + target
                    + "'. The target must be one of power on, power off, rebooting, soft power off, soft rebooting.");
        }
        if (OneViewPower.applies(change.node())) { // OneView's power, through the allocator: answered later
            return reserve(change.node()).flatMap(x -> {
                OneViewPower.request(change, target, oneViewPowerTimeout);
                change.node().reservation = null;
                return change.announce();
            }).replaceWith(() -> Outcome.done(202, change.node()));
        }
        return whileReserved(change, node -> {
            HardwareDriver driver = Drivers.get(node.driver);
            FakeHardwareRecord hardware = FakeHardwareRecord.fromDriverInternalInfo(node.driverInternalInfo);
            StepResult result = driver.setPower(target, hardware);
            node.driverInternalInfo.put(FakeHardwareRecord.KEY, hardware.toJson());
            node.targetPowerState = null;
            if (result instanceof StepResult.Failed failed) {
                node.lastError = "Failed to change power state to '" + target + "' on node " + node.uuid + ": " + failed.error();
            } else {
                node.powerState = hardware.powerState();
            }
        }, 202);
    }

    /**
     * The oneview-allocator's observation of a oneview node's hardware: a fact kept for validation, and the power
     * the node's power_state is synced with ({@link OneViewPowerSync}). It needs no
     * reservation (the row lock orders it with every other writer) so a node at work still learns it; a node
     * of another driver, or an observation of other hardware than the node's, is refused and changes nothing.
     */
    private Uni<Outcome> observe(NodeChange change, ObserveServerHardware observed) {
        NodeEntity node = change.node();
        if (!Drivers.ONEVIEW.equals(node.driver)
                || !observed.getServerHardwareUri().equals(node.driverInfo.get(OneViewHardware.SERVER_HARDWARE_URI))) {
            throw Rejection.badRequest("Node " + node.uuid + " is not a oneview node of server hardware "
                    + observed.getServerHardwareUri() + "; the observation was not recorded.");
        }
        OneViewHardware.observe(node.driverInternalInfo, observed.getServerHardwareUri(), observed.getServerProfileUri(),
                observed.getServerProfileName(), observed.getObservedAt());
        change.touched();
        powerSync.reconcile(change, observed.getPowerState()); // OneView is the power truth of a oneview node
        return change.announce().replaceWith(() -> Outcome.done(200, node));
    }

    private static void maintenance(NodeEntity node, SetMaintenance command) {
        node.maintenance = command.getMaintenance();
        node.maintenanceReason = command.getMaintenance() ? command.getReason() : null;
    }

    private Uni<Outcome> update(NodeChange change, UpdateNode command) {
        NodeEntity node = change.node();
        Map<String, Object> document = writable(node);
        NodePatch.apply(document, command.getPatch());
        boolean retired = Boolean.TRUE.equals(document.get("retired"));
        if (document.get("retired") != null && !(document.get("retired") instanceof Boolean)) {
            throw Rejection.badRequest("Invalid input for field/attribute retired. Value: '" + document.get("retired") + "'. Expected a boolean.");
        }
        if (retired && !node.retired && ProvisionState.AVAILABLE.wire().equals(node.provisionState)) {
            throw Rejection.conflict("The node " + node.uuid + " can not be retired in provision state available;"
                    + " move it to manageable first.");
        }
        if (!retired) {
            if (document.get("retired_reason") != null && !document.get("retired_reason").equals(node.retiredReason)) {
                throw Rejection.badRequest("Cannot set retired_reason without setting retired on node " + node.uuid + ".");
            }
            document.put("retired_reason", null); // unsetting retired clears the reason
        }
        String name = (String) document.get("name");
        NodeNames.requireValidName(name);
        NodeSettings.requireValidShard((String) document.get("shard"));
        if (document.get("driver_info") != null && !document.get("driver_info").equals(node.driverInfo)) {
            Drivers.requireEnabled(node.driver);
        }
        Uni<Boolean> nameTaken = name == null || name.equals(node.name) ? Uni.createFrom().item(false) : NodeEntity.nameTaken(name);
        return nameTaken.flatMap(taken -> {
            if (taken) {
                throw Rejection.conflict("A node with name " + name + " already exists.");
            }
            return whileReserved(change, n -> write(n, document), 200);
        });
    }

    private Uni<Outcome> delete(NodeChange change) {
        NodeEntity node = change.node();
        ProvisionState state = change.state();
        if (!node.maintenance && !DELETE_ALLOWED.contains(state)) {
            throw Rejection.conflict("Can not delete node " + node.uuid + " while it is in provision state \""
                    + state.wire() + "\". Valid provision states to start deletion are " + DELETE_ALLOWED.stream()
                    .map(ProvisionState::wire).sorted().toList() + ", or put the node in maintenance first.");
        }
        // One DELETE of the row this transaction holds locked, not Hibernate's remove(): the flush of an entity
        // removal lost its continuation under concurrent intents and left the transaction open for ever
        // (Hibernate Reactive 3.2 shares one delete coordinator between sessions; docs/architecture.md,
        // "Why DELETE is a statement").
        return reserve(node)
                .flatMap(x -> Panache.getSession())
                .flatMap(session -> session.detach(node)
                        .createNativeQuery("DELETE FROM nodes WHERE uuid = ?1", NODES).setParameter(1, node.uuid).executeUpdate())
                .flatMap(x -> change.announceDeletion())
                .flatMap(x -> Outbox.tombstone(Topic.NODE_STATE, node.uuid.toString()))
                .replaceWith(new Outcome(true, 204, null, null, null));
    }

    /** Takes the node, applies {@code edit}, gives the node back, announces; all in the intent's transaction. */
    private Uni<Outcome> whileReserved(NodeChange change, Consumer<NodeEntity> edit, int code) {
        NodeEntity node = change.node();
        return reserve(node).flatMap(x -> {
            edit.accept(node);
            node.reservation = null;
            change.touched();
            return change.announce();
        }).replaceWith(() -> Outcome.done(code, node));
    }

    /**
     * As {@link #whileReserved}, for an edit that also writes other tables (ports): its checks throw a Rejection
     * before anything is written, and the reservation is taken only once they pass.
     */
    private Uni<Outcome> whileReservedAsync(NodeChange change, Function<NodeEntity, Uni<Void>> edit, int code) {
        NodeEntity node = change.node();
        if (node.reservation != null) {
            return Uni.createFrom().failure(new NodeBusy(node.uuid.toString(), node.reservation));
        }
        return edit.apply(node).flatMap(x -> {
            node.reservation = null;
            change.touched();
            return change.announce();
        }).replaceWith(() -> Outcome.done(code, node));
    }

    /**
     * Ironic's reserve_node for a node this transaction has loaded FOR UPDATE: nobody else can take it before
     * commit, so a free one is taken in memory (and given back before the transaction ends); a node someone
     * holds is retried by the caller.
     */
    private Uni<Void> reserve(NodeEntity node) {
        if (node.reservation != null) {
            return Uni.createFrom().failure(new NodeBusy(node.uuid.toString(), node.reservation));
        }
        node.reservation = conductor.name();
        return Uni.createFrom().voidItem();
    }

    private static Map<String, Object> writable(NodeEntity node) {
        Map<String, Object> document = new LinkedHashMap<>();
        document.put("name", node.name);
        document.put("description", node.description);
        document.put("driver_info", new LinkedHashMap<>(node.driverInfo));
        document.put("properties", new LinkedHashMap<>(node.properties));
        document.put("extra", new LinkedHashMap<>(node.extra));
        document.put("instance_info", new LinkedHashMap<>(node.instanceInfo));
        document.put("instance_uuid", node.instanceUuid == null ? null : node.instanceUuid.toString());
        document.put("resource_class", node.resourceClass);
        document.put("owner", node.owner);
        document.put("lessee", node.lessee);
        document.put("automated_clean", node.automatedClean);
        document.put("conductor_group", node.conductorGroup);
        document.put("retired", node.retired);
        document.put("retired_reason", node.retiredReason);
        document.put("network_data", new LinkedHashMap<>(node.networkData));
        document.put("shard", node.shard);
        return document;
    }

    @SuppressWarnings("unchecked")
    private static void write(NodeEntity node, Map<String, Object> document) {
        node.name = (String) document.get("name");
        node.description = (String) document.get("description");
        node.driverInfo = new HashMap<>((Map<String, Object>) document.get("driver_info"));
        node.properties = new HashMap<>((Map<String, Object>) document.get("properties"));
        node.extra = new HashMap<>((Map<String, Object>) document.get("extra"));
        node.instanceInfo = new HashMap<>((Map<String, Object>) document.get("instance_info"));
        Object instance = document.get("instance_uuid");
        node.instanceUuid = instance == null ? null : NodeNames.requireUuid(instance.toString());
        node.resourceClass = (String) document.get("resource_class");
        node.owner = (String) document.get("owner");
        node.lessee = (String) document.get("lessee");
        node.automatedClean = (Boolean) document.get("automated_clean");
        node.conductorGroup = document.get("conductor_group") == null ? "" : (String) document.get("conductor_group");
        node.retired = Boolean.TRUE.equals(document.get("retired"));
        node.retiredReason = (String) document.get("retired_reason");
        node.networkData = new HashMap<>((Map<String, Object>) document.get("network_data"));
        node.shard = (String) document.get("shard");
    }

    private static Instant now() {
        return Instant.now().truncatedTo(ChronoUnit.MILLIS);
    }
}
