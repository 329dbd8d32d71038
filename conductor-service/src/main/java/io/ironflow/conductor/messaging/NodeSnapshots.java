package io.ironflow.conductor.messaging;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ironflow.conductor.domain.Rejection;
import io.ironflow.conductor.domain.hardware.OneViewHardware;
import io.ironflow.conductor.persistence.NodeEntity;
import io.ironflow.events.NodeSnapshot;
import io.ironflow.events.PortSnapshot;
import io.ironflow.events.PortgroupSnapshot;
import io.ironflow.schemas.SecretFields;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/** Node rows as the events describe them, and the JSON text the Avro contracts carry dictionaries in. */
public final class NodeSnapshots {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final TypeReference<Map<String, Object>> DICT = new TypeReference<>() {
    };

    private NodeSnapshots() {
    }

    public static NodeSnapshot of(NodeEntity node) {
        return NodeSnapshot.newBuilder()
                .setUuid(node.uuid.toString())
                .setRevision(node.revision)
                .setName(node.name)
                .setDriver(node.driver)
                .setDriverInfo(toJson(SecretFields.driverInfo(node.driverInfo)))
                .setProperties(toJson(node.properties))
                .setExtra(toJson(node.extra))
                .setInstanceInfo(toJson(SecretFields.instanceInfo(node.instanceInfo)))
                .setInstanceUuid(node.instanceUuid == null ? null : node.instanceUuid.toString())
                .setResourceClass(node.resourceClass)
                .setOwner(node.owner)
                .setLessee(node.lessee)
                .setDescription(node.description)
                .setAutomatedClean(node.automatedClean)
                .setConductorGroup(node.conductorGroup)
                .setProvisionState(node.provisionState)
                .setTargetProvisionState(node.targetProvisionState)
                .setPowerState(node.powerState)
                .setTargetPowerState(node.targetPowerState)
                .setMaintenance(node.maintenance)
                .setMaintenanceReason(node.maintenanceReason)
                .setFault(node.fault)
                .setRetired(node.retired)
                .setRetiredReason(node.retiredReason)
                .setLastError(SecretFields.text(node.lastError))
                .setReservation(node.reservation)
                .setConductor(node.conductor)
                .setCleanStep(node.cleanStep == null ? null : toJson(node.cleanStep))
                .setCreatedAt(node.createdAt)
                .setUpdatedAt(node.updatedAt)
                .setProvisionUpdatedAt(node.provisionUpdatedAt)
                .setNetworkData(toJson(node.networkData))
                .setBootMode(node.bootMode)
                .setSecureBoot(node.secureBoot)
                .setShard(node.shard)
                .setTraits(List.of(node.traits))
                .setPorts(ports(node))
                .setPortgroups(portgroups(node))
                .setOneviewError(node.driverInternalInfo.get("oneview_error") instanceof String e ? e : null)
                .setOneviewServerProfileUri(OneViewHardware.observedProfile(node.driverInfo, node.driverInternalInfo))
                .build();
    }

    /** The node's ports, oldest first (creation time, then uuid). */
    @SuppressWarnings("unchecked")
    private static List<PortSnapshot> ports(NodeEntity node) {
        return node.ports.values().stream().map(p -> (Map<String, Object>) p)
                .sorted(Comparator.comparing((Map<String, Object> p) -> (String) p.get("created_at"))
                        .thenComparing(p -> (String) p.get("uuid")))
                .map(p -> PortSnapshot.newBuilder()
                        .setUuid((String) p.get("uuid"))
                        .setAddress((String) p.get("address"))
                        .setPxeEnabled(!Boolean.FALSE.equals(p.get("pxe_enabled")))
                        .setPhysicalNetwork((String) p.get("physical_network"))
                        .setLocalLinkConnection(toJson((Map<String, Object>) p.getOrDefault("local_link_connection", Map.of())))
                        .setExtra(toJson((Map<String, Object>) p.getOrDefault("extra", Map.of())))
                        .setInternalInfo(toJson((Map<String, Object>) p.getOrDefault("internal_info", Map.of())))
                        .setCreatedAt(Instant.parse((String) p.get("created_at")))
                        .setUpdatedAt(p.get("updated_at") == null ? null : Instant.parse((String) p.get("updated_at")))
                        .setPortgroupUuid((String) p.get("portgroup_uuid"))
                        .build())
                .toList();
    }

    /** The node's portgroups, oldest first (creation time, then uuid). */
    @SuppressWarnings("unchecked")
    private static List<PortgroupSnapshot> portgroups(NodeEntity node) {
        return node.portgroups.values().stream().map(p -> (Map<String, Object>) p)
                .sorted(Comparator.comparing((Map<String, Object> p) -> (String) p.get("created_at"))
                        .thenComparing(p -> (String) p.get("uuid")))
                .map(p -> PortgroupSnapshot.newBuilder()
                        .setUuid((String) p.get("uuid"))
                        .setName((String) p.get("name"))
                        .setAddress((String) p.get("address"))
                        .setMode((String) p.get("mode"))
                        .setStandalonePortsSupported(!Boolean.FALSE.equals(p.get("standalone_ports_supported")))
                        .setProperties(toJson((Map<String, Object>) p.getOrDefault("properties", Map.of())))
                        .setExtra(toJson((Map<String, Object>) p.getOrDefault("extra", Map.of())))
                        .setInternalInfo(toJson((Map<String, Object>) p.getOrDefault("internal_info", Map.of())))
                        .setCreatedAt(Instant.parse((String) p.get("created_at")))
                        .setUpdatedAt(p.get("updated_at") == null ? null : Instant.parse((String) p.get("updated_at")))
                        .build())
                .toList();
    }

    /** Reads a dictionary field of an intent; anything but a JSON object is the sender's error. */
    public static Map<String, Object> dict(String field, String json) {
        if (json == null || json.isBlank()) {
            return Map.of();
        }
        try {
            Map<String, Object> dict = JSON.readValue(json, DICT);
            if (dict == null) {
                throw Rejection.badRequest("Invalid input for field/attribute " + field + ". Value: null. Expected a JSON object.");
            }
            return dict;
        } catch (JsonProcessingException e) {
            throw Rejection.badRequest("Invalid input for field/attribute " + field + ". Expected a JSON object: "
                    + e.getOriginalMessage());
        }
    }

    static String toJson(Map<String, Object> dict) {
        try {
            return JSON.writeValueAsString(dict);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
