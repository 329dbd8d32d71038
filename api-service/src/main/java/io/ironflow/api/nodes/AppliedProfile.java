package io.ironflow.api.nodes;

import com.fasterxml.jackson.databind.JsonNode;
import io.ironflow.api.errors.ApiError;
import io.ironflow.policy.HardwareAddresses;

/**
 * {@code driver_info.applied_server_profile_uri} is the oneview-allocator's record of the profile it applied, and
 * the allocator deletes that profile when the node is torn down: nobody writes it through the API (400, Ironic's
 * words for an internal attribute), by its own path or inside a whole driver_info. The conductor refuses it too,
 * to anyone but the allocator's principal; this is the early answer.
 */
final class AppliedProfile {

    private AppliedProfile() {
    }

    /** Refuses a write of {@code value} at the node field path {@code path} (split at '/') that sets the field. */
    static void refuseIn(String[] path, JsonNode value) {
        if (path.length == 0 || !path[0].equals("driver_info")) {
            return;
        }
        boolean named = path.length > 1 ? path[1].equals(HardwareAddresses.APPLIED_PROFILE)
                : value != null && value.isObject() && value.has(HardwareAddresses.APPLIED_PROFILE);
        if (named) {
            throw ApiError.badRequest(HardwareAddresses.appliedProfileRefusal());
        }
    }
}
