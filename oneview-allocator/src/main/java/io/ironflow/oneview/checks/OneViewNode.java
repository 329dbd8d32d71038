package io.ironflow.oneview.checks;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ironflow.events.NodeSnapshot;

/**
 * What the periodic checks need of a {@code oneview} node, read from its latest ironflow.node-state snapshot:
 * among it the structured facts the conductor keeps, {@code driver_internal_info.oneview_error} and the profile
 * last observed on its hardware, and the power state Ironflow reports for it.
 */
public record OneViewNode(String uuid, String provisionState, boolean maintenance, String maintenanceReason,
        boolean retired, String lastError, String serverHardwareUri, String appliedServerProfileUri, boolean dynamic,
        String oneviewError, String observedProfile, String powerState) {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** The node if it is a oneview node; null for any other driver or an unreadable driver_info. */
    public static OneViewNode of(NodeSnapshot snapshot) {
        if (!"oneview".equals(snapshot.getDriver())) {
            return null;
        }
        JsonNode info;
        try {
            info = JSON.readTree(snapshot.getDriverInfo());
        } catch (Exception e) {
            return null;
        }
        return new OneViewNode(snapshot.getUuid(), snapshot.getProvisionState(), snapshot.getMaintenance(),
                snapshot.getMaintenanceReason(), snapshot.getRetired(), snapshot.getLastError(),
                info.path("server_hardware_uri").isTextual() ? info.path("server_hardware_uri").asText() : null,
                info.path("applied_server_profile_uri").isTextual() ? info.path("applied_server_profile_uri").asText() : null,
                !info.path("dynamic_allocation").isBoolean() || info.path("dynamic_allocation").asBoolean(),
                snapshot.getOneviewError(), snapshot.getOneviewServerProfileUri(), snapshot.getPowerState());
    }
}
