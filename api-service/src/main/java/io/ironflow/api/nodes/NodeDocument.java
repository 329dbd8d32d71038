package io.ironflow.api.nodes;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ironflow.events.NodeSnapshot;
import io.ironflow.schemas.SecretFields;
import java.net.URI;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A node as Ironic's API shows it (api-ref node-show-response), built from the node's snapshot. */
public final class NodeDocument {

    /** What {@code GET /v1/nodes} shows without {@code detail} (Ironic's _DEFAULT_RETURN_FIELDS). */
    static final List<String> SUMMARY_FIELDS =
            List.of("instance_uuid", "maintenance", "power_state", "provision_state", "uuid", "name", "links");

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final TypeReference<Map<String, Object>> DICT = new TypeReference<>() {
    };
    // Ironic renders times as ISO 8601 with microseconds and an explicit offset.
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSSxxx");

    private NodeDocument() {
    }

    public static Map<String, Object> full(NodeSnapshot node, URI base) {
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("uuid", node.getUuid());
        doc.put("name", node.getName());
        doc.put("driver", node.getDriver());
        doc.put("driver_info", SecretFields.mask(dict(node.getDriverInfo())));
        doc.put("driver_internal_info", Map.of());
        doc.put("properties", dict(node.getProperties()));
        doc.put("extra", dict(node.getExtra()));
        doc.put("instance_info", dict(node.getInstanceInfo()));
        doc.put("instance_uuid", node.getInstanceUuid());
        doc.put("resource_class", node.getResourceClass());
        doc.put("owner", node.getOwner());
        doc.put("lessee", node.getLessee());
        doc.put("description", node.getDescription());
        doc.put("automated_clean", node.getAutomatedClean());
        doc.put("conductor_group", node.getConductorGroup());
        doc.put("conductor", node.getConductor());
        doc.put("provision_state", node.getProvisionState());
        doc.put("target_provision_state", node.getTargetProvisionState());
        doc.put("power_state", node.getPowerState());
        doc.put("target_power_state", node.getTargetPowerState());
        doc.put("maintenance", node.getMaintenance());
        doc.put("maintenance_reason", node.getMaintenanceReason());
        doc.put("retired", node.getRetired());
        doc.put("retired_reason", node.getRetiredReason());
        doc.put("last_error", node.getLastError());
        doc.put("reservation", node.getReservation());
        doc.put("clean_step", node.getCleanStep() == null ? Map.of() : dict(node.getCleanStep()));
        doc.put("created_at", time(node.getCreatedAt()));
        doc.put("updated_at", time(node.getUpdatedAt()));
        doc.put("provision_updated_at", time(node.getProvisionUpdatedAt()));
        doc.put("links", links(base, "nodes/" + node.getUuid()));
        doc.put("states", links(base, "nodes/" + node.getUuid() + "/states"));
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

    public static Map<String, Object> summary(NodeSnapshot node, URI base) {
        Map<String, Object> full = full(node, base);
        Map<String, Object> doc = new LinkedHashMap<>();
        SUMMARY_FIELDS.forEach(field -> doc.put(field, full.get(field)));
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
