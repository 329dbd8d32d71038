package io.ironflow.api.nodes;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ironflow.api.versions.ApiVersion;
import io.ironflow.api.versions.Microversions;
import io.ironflow.events.NodeSnapshot;
import io.ironflow.schemas.SecretFields;
import java.net.URI;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
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

    /** How a node's field is read from its snapshot; links need the API's base URI. */
    private interface Field {
        Object value(NodeSnapshot node, URI base);
    }

    /**
     * Every field of a node, in the order Ironic's node-show-response lists them. Features Ironflow does not
     * build show what Ironic shows for a node that does not use them (see docs/api-compat.md).
     */
    private static final Map<String, Field> TABLE = table();

    /** Every field of a node, in rendering order. */
    static final List<String> FIELDS = List.copyOf(TABLE.keySet());

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final TypeReference<Map<String, Object>> DICT = new TypeReference<>() {
    };
    // Ironic renders times as ISO 8601 with microseconds and an explicit offset.
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSSxxx");

    private NodeDocument() {
    }

    private static Map<String, Field> table() {
        Map<String, Field> t = new LinkedHashMap<>();
        t.put("uuid", (n, b) -> n.getUuid());
        t.put("name", (n, b) -> n.getName());
        t.put("driver", (n, b) -> n.getDriver());
        t.put("driver_info", (n, b) -> SecretFields.mask(dict(n.getDriverInfo())));
        t.put("driver_internal_info", (n, b) -> Map.of()); // the conductor's internals stay private
        t.put("properties", (n, b) -> dict(n.getProperties()));
        t.put("extra", (n, b) -> dict(n.getExtra()));
        t.put("instance_info", (n, b) -> dict(n.getInstanceInfo()));
        t.put("instance_uuid", (n, b) -> n.getInstanceUuid());
        t.put("chassis_uuid", (n, b) -> null); // Ironflow has no chassis
        t.put("resource_class", (n, b) -> n.getResourceClass());
        t.put("owner", (n, b) -> n.getOwner());
        t.put("lessee", (n, b) -> n.getLessee());
        t.put("description", (n, b) -> n.getDescription());
        t.put("automated_clean", (n, b) -> n.getAutomatedClean());
        t.put("conductor_group", (n, b) -> n.getConductorGroup());
        t.put("conductor", (n, b) -> n.getConductor());
        t.put("provision_state", (n, b) -> n.getProvisionState());
        t.put("target_provision_state", (n, b) -> n.getTargetProvisionState());
        t.put("power_state", (n, b) -> n.getPowerState());
        t.put("target_power_state", (n, b) -> n.getTargetPowerState());
        t.put("console_enabled", (n, b) -> false); // no consoles
        t.put("maintenance", (n, b) -> n.getMaintenance());
        t.put("maintenance_reason", (n, b) -> n.getMaintenanceReason());
        t.put("fault", (n, b) -> null); // no periodic check sets a fault yet
        t.put("retired", (n, b) -> n.getRetired());
        t.put("retired_reason", (n, b) -> n.getRetiredReason());
        t.put("protected", (n, b) -> false); // node protection is not built
        t.put("protected_reason", (n, b) -> null);
        t.put("last_error", (n, b) -> n.getLastError());
        t.put("reservation", (n, b) -> n.getReservation());
        t.put("clean_step", (n, b) -> n.getCleanStep() == null ? Map.of() : dict(n.getCleanStep()));
        t.put("deploy_step", (n, b) -> Map.of()); // deploy steps are not built
        t.put("raid_config", (n, b) -> Map.of());
        t.put("target_raid_config", (n, b) -> Map.of());
        t.put("traits", (n, b) -> List.of());
        t.put("allocation_uuid", (n, b) -> null);
        t.put("inspection_started_at", (n, b) -> null);
        t.put("inspection_finished_at", (n, b) -> null);
        t.put("created_at", (n, b) -> time(n.getCreatedAt()));
        t.put("updated_at", (n, b) -> time(n.getUpdatedAt()));
        t.put("provision_updated_at", (n, b) -> time(n.getProvisionUpdatedAt()));
        t.put("links", (n, b) -> links(b, "nodes/" + n.getUuid()));
        t.put("states", (n, b) -> links(b, "nodes/" + n.getUuid() + "/states"));
        return Collections.unmodifiableMap(t);
    }

    /** The node as {@code GET /v1/nodes/{ident}} shows it at {@code version}: newer fields are left out. */
    public static Map<String, Object> full(NodeSnapshot node, URI base, ApiVersion version) {
        return render(node, base, version, FIELDS);
    }

    /** Only {@code fields} (Ironic's {@code ?fields=}, or the list's default), plus the node's links. */
    public static Map<String, Object> only(NodeSnapshot node, URI base, ApiVersion version, List<String> fields) {
        List<String> selected = new ArrayList<>(fields);
        if (!selected.contains("links")) {
            selected.add("links");
        }
        return render(node, base, version, selected);
    }

    private static Map<String, Object> render(NodeSnapshot node, URI base, ApiVersion version, List<String> fields) {
        Map<String, Object> doc = new LinkedHashMap<>();
        for (String field : fields) {
            Field read = TABLE.get(field);
            if (read != null && Microversions.shows(field, version)) {
                doc.put(field, read.value(node, base));
            }
        }
        return doc;
    }

    /** Ironic's {@code GET /v1/nodes/{ident}/states} document (api-ref node-get-state-response). */
    public static Map<String, Object> states(NodeSnapshot node) {
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("console_enabled", false); // no consoles yet
        doc.put("last_error", node.getLastError());
        doc.put("power_state", node.getPowerState());
        doc.put("provision_state", node.getProvisionState());
        doc.put("provision_updated_at", time(node.getProvisionUpdatedAt()));
        doc.put("raid_config", Map.of()); // no RAID configuration yet
        doc.put("target_power_state", node.getTargetPowerState());
        doc.put("target_provision_state", node.getTargetProvisionState());
        doc.put("target_raid_config", Map.of());
        return doc;
    }

    /** Ironic's link pair: {@code self} under /v1 and {@code bookmark} without the version. */
    static List<Map<String, String>> links(URI base, String path) {
        String root = base.toString().endsWith("/") ? base.toString() : base + "/";
        return List.of(
                Map.of("href", root + "v1/" + path, "rel", "self"),
                Map.of("href", root + path, "rel", "bookmark"));
    }

    private static Map<String, Object> dict(String json) {
        try {
            return JSON.readValue(json, DICT);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("stored dictionary is not JSON: " + json, e);
        }
    }

    private static String time(Instant instant) {
        return instant == null ? null : TIME.format(instant.atOffset(ZoneOffset.UTC));
    }
}
