package io.ironflow.conductor.domain;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;

/**
 * A node to enroll, as a create-node intent describes it. Its checks need neither the database nor the driver
 * registry: whether the driver is enabled is the caller's to check ({@code Drivers.requireEnabled}).
 */
public record NewNode(UUID uuid, String name, String driver, Map<String, Object> driverInfo,
        Map<String, Object> properties, Map<String, Object> extra, Map<String, Object> instanceInfo,
        String resourceClass, String owner, String lessee, String description, Boolean automatedClean,
        String conductorGroup, Map<String, Object> networkData, String shard) {

    /** Every node starts in enroll (Ironic API 1.11 and later). */
    public static final ProvisionState INITIAL_STATE = ProvisionState.ENROLL;

    /** Checks what can be checked without the database; a rejected node changes nothing. */
    public NewNode {
        if (driver == null || driver.isBlank()) {
            throw Rejection.badRequest("Invalid input for field/attribute driver. Mandatory field missing.");
        }
        NodeNames.requireValidName(name);
        if (conductorGroup == null) {
            conductorGroup = "";
        }
        if (!conductorGroup.matches("[A-Za-z0-9_.-]{0,255}")) {
            throw Rejection.badRequest("Invalid conductor group " + conductorGroup + ".");
        }
        driverInfo = Map.copyOf(driverInfo);
        properties = Map.copyOf(properties);
        extra = Map.copyOf(extra);
        instanceInfo = Map.copyOf(instanceInfo);
        networkData = Collections.unmodifiableMap(new LinkedHashMap<>(networkData)); // network_data may hold nulls
        NodeSettings.requireValidShard(shard);
    }
}
