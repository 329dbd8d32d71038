package io.ironflow.api.nodes;

import static io.ironflow.api.documents.IronicRendering.dict;
import static io.ironflow.api.documents.IronicRendering.links;
import static io.ironflow.api.documents.IronicRendering.time;

import io.ironflow.api.drivers.DriverDocument;
import io.ironflow.api.versions.ApiVersion;
import io.ironflow.api.versions.Microversions;
import io.ironflow.events.NodeSnapshot;
import io.ironflow.schemas.SecretFields;
import java.net.URI;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A node as Ironic's API shows it (api-ref node-show-response), built from the node's snapshot. */
public final class NodeDocument {

    /** What {@code GET /v1/nodes} shows without {@code detail} (Ironic's _DEFAULT_RETURN_FIELDS). */
    static final List<String> SUMMARY_FIELDS =
            List.of("instance_uuid", "maintenance", "power_state", "provision_state", "uuid", "name");

    /**
     * What rendering needs besides the node: the API's base URI for links, the requested version, and each
     * driver's default implementation per interface type (driver → type → name), which the node's
     * {@code <type>_interface} fields show.
     */
    public record Rendering(URI base, ApiVersion version, Map<String, Map<String, String>> interfaces) {
    }

    /** How a node's field is read from its snapshot. */
    private interface Field {
        Object value(NodeSnapshot node, Rendering r);
    }


    /**
     * Every field of a node, in the order Ironic's node-show-response lists them. Features Ironflow does not
     * build show what Ironic shows for a node that does not use them (see docs/api-compat.md).
     */
    private static final Map<String, Field> TABLE = table();

    /** Every field of a node, in rendering order. */
    public static final List<String> FIELDS = List.copyOf(TABLE.keySet());

    private NodeDocument() {
    }

    private static Map<String, Field> table() {
        Map<String, Field> t = new LinkedHashMap<>();
        t.put("uuid", (n, r) -> n.getUuid());
        t.put("name", (n, r) -> n.getName());
        t.put("driver", (n, r) -> n.getDriver());
        t.put("driver_info", (n, r) -> SecretFields.driverInfo(dict(n.getDriverInfo())));
        t.put("driver_internal_info", (n, r) -> Map.of()); // the conductor's internals stay private
        t.put("properties", (n, r) -> dict(n.getProperties()));
        t.put("extra", (n, r) -> dict(n.getExtra()));
        t.put("instance_info", (n, r) -> SecretFields.instanceInfo(dict(n.getInstanceInfo())));
        t.put("instance_uuid", (n, r) -> n.getInstanceUuid());
        t.put("chassis_uuid", (n, r) -> null); // Ironflow has no chassis
        t.put("resource_class", (n, r) -> n.getResourceClass());
        t.put("owner", (n, r) -> n.getOwner());
        t.put("lessee", (n, r) -> n.getLessee());
        t.put("description", (n, r) -> n.getDescription());
        t.put("automated_clean", (n, r) -> n.getAutomatedClean());
        t.put("conductor_group", (n, r) -> n.getConductorGroup());
        t.put("conductor", (n, r) -> n.getConductor());
        t.put("provision_state", (n, r) -> n.getProvisionState());
        t.put("target_provision_state", (n, r) -> n.getTargetProvisionState());
        t.put("power_state", (n, r) -> n.getPowerState());
        t.put("target_power_state", (n, r) -> n.getTargetPowerState());
        t.put("console_enabled", (n, r) -> false); // no consoles
        t.put("maintenance", (n, r) -> n.getMaintenance());
        t.put("maintenance_reason", (n, r) -> n.getMaintenanceReason());
        t.put("fault", (n, r) -> n.getFault());
        t.put("retired", (n, r) -> n.getRetired());
        t.put("retired_reason", (n, r) -> n.getRetiredReason());
        t.put("protected", (n, r) -> false); // node protection is not built
        t.put("protected_reason", (n, r) -> null);
        t.put("last_error", (n, r) -> SecretFields.text(n.getLastError()));
        t.put("reservation", (n, r) -> n.getReservation());
        // a step's arguments may hold a password (Ironic masks step args as mask_dict_password does)
        t.put("clean_step", (n, r) -> n.getCleanStep() == null ? Map.of() : SecretFields.mask(dict(n.getCleanStep())));
        t.put("deploy_step", (n, r) -> Map.of()); // deploy steps are not built
        t.put("raid_config", (n, r) -> Map.of());
        t.put("target_raid_config", (n, r) -> Map.of());
        t.put("traits", (n, r) -> List.copyOf(n.getTraits()));
        t.put("allocation_uuid", (n, r) -> null);
        t.put("inspection_started_at", (n, r) -> null);
        t.put("inspection_finished_at", (n, r) -> null);
        t.put("created_at", (n, r) -> time(n.getCreatedAt()));
        t.put("updated_at", (n, r) -> time(n.getUpdatedAt()));
        t.put("provision_updated_at", (n, r) -> time(n.getProvisionUpdatedAt()));
        t.put("network_data", (n, r) -> dict(n.getNetworkData()));
        t.put("boot_mode", (n, r) -> n.getBootMode());
        t.put("secure_boot", (n, r) -> n.getSecureBoot());
        t.put("shard", (n, r) -> n.getShard());
        for (String type : DriverDocument.INTERFACE_TYPES) {
            t.put(type + "_interface", (n, r) -> r.interfaces().getOrDefault(n.getDriver(), Map.of()).get(type));
        }
        t.put("links", (n, r) -> links(r.base(), "nodes/" + n.getUuid()));
        t.put("states", (n, r) -> links(r.base(), "nodes/" + n.getUuid() + "/states"));
        return Collections.unmodifiableMap(t);
    }

    /** The node as {@code GET /v1/nodes/{ident}} shows it at {@code version}: newer fields are left out. */
    public static Map<String, Object> full(NodeSnapshot node, Rendering rendering) {
        return render(node, rendering, FIELDS);
    }

    /** Only {@code fields} (Ironic's {@code ?fields=}, or the list's default), plus the node's links. */
    public static Map<String, Object> only(NodeSnapshot node, Rendering rendering, List<String> fields) {
        List<String> selected = new ArrayList<>(fields);
        if (!selected.contains("links")) {
            selected.add("links");
        }
        return render(node, rendering, selected);
    }

    private static Map<String, Object> render(NodeSnapshot node, Rendering rendering, List<String> fields) {
        Map<String, Object> doc = new LinkedHashMap<>();
        for (String field : fields) {
            Field read = TABLE.get(field);
            if (read != null && Microversions.shows(field, rendering.version())) {
                doc.put(field, read.value(node, rendering));
            }
        }
        return doc;
    }

    /** Ironic's {@code GET /v1/nodes/{ident}/states} document (api-ref node-get-state-response). */
    public static Map<String, Object> states(NodeReader.NodeStates node) {
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("console_enabled", false); // no consoles yet
        doc.put("last_error", SecretFields.text(node.lastError())); // masked as in the node's own document
        doc.put("power_state", node.powerState());
        doc.put("provision_state", node.provisionState());
        doc.put("provision_updated_at", time(node.provisionUpdatedAt()));
        doc.put("raid_config", Map.of()); // no RAID configuration yet
        doc.put("target_power_state", node.targetPowerState());
        doc.put("target_provision_state", node.targetProvisionState());
        doc.put("target_raid_config", Map.of());
        return doc;
    }
}
