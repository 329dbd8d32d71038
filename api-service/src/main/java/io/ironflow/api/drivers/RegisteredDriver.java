package io.ironflow.api.drivers;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;

/**
 * A driver as the live conductors registered it (conductor_drivers): the conductors offering it, and the
 * registration of the most recent one (interfaces, driver_info properties, clean-step catalogue).
 */
public record RegisteredDriver(String name, List<String> hosts, JsonObject interfaces, JsonObject properties,
        JsonArray cleanSteps) {
}
