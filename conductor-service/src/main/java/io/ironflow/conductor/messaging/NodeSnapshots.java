package io.ironflow.conductor.messaging;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ironflow.conductor.domain.Rejection;
import io.ironflow.conductor.persistence.NodeEntity;
import io.ironflow.events.NodeSnapshot;
import io.ironflow.schemas.SecretFields;
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
                .setDriverInfo(toJson(SecretFields.mask(node.driverInfo)))
                .setProperties(toJson(node.properties))
                .setExtra(toJson(node.extra))
                .setInstanceInfo(toJson(node.instanceInfo))
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
                .setRetired(node.retired)
                .setRetiredReason(node.retiredReason)
                .setLastError(node.lastError)
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
                .build();
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
