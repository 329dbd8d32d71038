package io.ironflow.conductor.intents;

import io.ironflow.conductor.domain.hardware.Drivers;
import io.ironflow.conductor.domain.NodeNames;
import io.ironflow.conductor.domain.NodePatch;
import io.ironflow.conductor.domain.NodeSettings;
import io.ironflow.conductor.domain.ProvisionState;
import io.ironflow.conductor.domain.Rejection;
import io.ironflow.conductor.node.Node;
import io.ironflow.conductor.persistence.NodeEntity;
import io.ironflow.conductor.work.NodeChange;
import io.ironflow.events.NodeIntent;
import io.ironflow.events.UpdateNode;
import io.ironflow.policy.IntentRules;
import io.ironflow.policy.NodeOwnership;
import io.ironflow.policy.Principal;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * {@link UpdateNode}: applies a JSON patch to the node's writable fields ({@link NodePatch}); a patch that breaks a
 * rule (a malformed name or shard, retiring an available node, a retired reason without retired, a name taken,
 * a driver not enabled, or driver_info of one) is refused and changes nothing; 200. As Ironic's node patch, a node in a
 * state transition is not patched (409) unless its state allows it ({@link ProvisionState#updatableInTransition}),
 * the patch only retires or unretires it (seed 000: "as long as the node is not locked"), or it removes
 * instance_uuid from a node in maintenance; Ironflow's own services ({@link Principal#isService}) record what
 * they do meanwhile (the allocator, the profile it applied while the node waits for it). What the patch changes in
 * driver_info passes {@link HardwareWrites} (hardware fields: 403; the applied profile: 400; hardware another node
 * has: 409), and the owner of an active node changes only as {@link ProvisionedOwner} allows (409).
 */
@ApplicationScoped
class UpdateNodeHandler implements CommandHandler<UpdateNode> {

    private final NodeEdits edits;
    private final HardwareWrites hardware;
    private final ProvisionedOwner provisionedOwner;

    UpdateNodeHandler(NodeEdits edits, HardwareWrites hardware, ProvisionedOwner provisionedOwner) {
        this.edits = edits;
        this.hardware = hardware;
        this.provisionedOwner = provisionedOwner;
    }

    @Override
    public Class<UpdateNode> command() {
        return UpdateNode.class;
    }

    private static final Set<String> RETIREMENT = Set.of("retired", "retired_reason");

    @Override
    public Uni<Outcome> apply(NodeIntent intent, UpdateNode command, NodeEntity lockedNode) {
        return edits.locked(intent, lockedNode).flatMap(change -> {
            Principal who = IntentRules.fromAvro(intent.getPrincipal());
            requireNoTransition(change, command.getPatch(), who);
            provisionedOwner.requireMayChange(who, change.node(), command.getPatch());
            return update(intent, change, command);
        });
    }

    private static void requireNoTransition(NodeChange change, String patch, Principal who) {
        NodeEntity node = change.node();
        if (node.targetProvisionState == null || change.state().updatableInTransition() || (who != null && who.isService())) {
            return;
        }
        Set<String> fields = NodePatch.fields(patch);
        boolean retirement = !fields.isEmpty() && RETIREMENT.containsAll(fields);
        boolean instanceUuidRemoval = node.maintenance && NodePatch.isRemovalOf(patch, "/instance_uuid");
        if (!retirement && !instanceUuidRemoval) {
            throw Rejection.conflict("Node " + node.uuid + " can not be updated while a state transition is in progress.");
        }
    }

    @SuppressWarnings("unchecked")
    private Uni<Outcome> update(NodeIntent intent, NodeChange change, UpdateNode command) {
        NodeEntity node = change.node();
        Map<String, Object> document = writable(node);
        NodePatch.apply(document, command.getPatch());
        boolean retired = Boolean.TRUE.equals(document.get("retired"));
        if (document.get("retired") != null && !(document.get("retired") instanceof Boolean)) {
            throw Rejection.badRequest("Invalid input for field/attribute retired. Value: '" + document.get("retired") + "'. Expected a boolean.");
        }
        change.aggregate().checkRetiring(retired);
        if (!retired) {
            // Ironic's _check_update_retired: unretiring clears the reason, even one set by the same patch; on a node
            // that stays unretired, only a non-empty new reason is refused.
            Object reason = document.get("retired_reason");
            boolean unretiring = node.retired;
            if (!unretiring && reason != null && !"".equals(reason) && !reason.equals(node.retiredReason)) {
                throw Rejection.badRequest("The retired_reason field can only be set when retired is True");
            }
            document.put("retired_reason", null);
        }
        String name = (String) document.get("name");
        NodeNames.requireValidName(name);
        NodeSettings.requireValidShard((String) document.get("shard"));
        // A driver this conductor does not have is a 400 (Ironic: NoValidHost); so is new driver_info for one.
        String driver = (String) document.get("driver");
        if (!driver.equals(node.driver)
                || (document.get("driver_info") != null && !document.get("driver_info").equals(node.driverInfo))) {
            Drivers.requireEnabled(driver);
        }
        Map<String, Object> driverInfo = (Map<String, Object>) document.get("driver_info");
        hardware.requireMayChange(intent, new NodeOwnership(node.owner, node.lessee), node.driverInfo, driverInfo);
        Uni<Boolean> nameTaken = name == null || name.equals(node.name) ? Uni.createFrom().item(false) : NodeEntity.nameTaken(name);
        return nameTaken.flatMap(taken -> {
            if (taken) {
                throw Rejection.conflict("A node with name " + name + " already exists.");
            }
            return hardware.requireFree(node.uuid, node.driverInfo, driverInfo);
        }).flatMap(free -> edits.whileReserved(change, n -> write(change.aggregate(), document), 200));
    }

    private static Map<String, Object> writable(NodeEntity node) {
        Map<String, Object> document = new LinkedHashMap<>();
        document.put("name", node.name);
        document.put("description", node.description);
        document.put("driver", node.driver);
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
    private static void write(Node aggregate, Map<String, Object> document) {
        NodeEntity node = aggregate.state();
        node.name = (String) document.get("name");
        node.description = (String) document.get("description");
        // The node's interfaces are its driver's (a node cannot choose others): they follow the new driver, as
        // Ironic's reset_interfaces does.
        node.driver = (String) document.get("driver");
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
        if (Boolean.TRUE.equals(document.get("retired"))) {
            aggregate.retire((String) document.get("retired_reason"));
        } else {
            aggregate.unretire();
        }
        node.networkData = new HashMap<>((Map<String, Object>) document.get("network_data"));
        node.shard = (String) document.get("shard");
    }
}
