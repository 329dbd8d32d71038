package io.ironflow.api.nodes;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ironflow.api.versions.ApiVersion;
import io.ironflow.api.versions.Microversions;
import io.ironflow.events.ChangePowerState;
import java.util.Iterator;
import java.util.Set;

/**
 * The body of {@code PUT /v1/nodes/{ident}/states/power}, checked for shape only: which targets exist and fit
 * the node is the conductor's decision.
 */
record PowerStateRequest(ChangePowerState command) {

    private static final Set<String> FIELDS = Set.of("target", "timeout");

    static PowerStateRequest parse(String body, ApiVersion version) {
        ObjectNode node = JsonBody.object(body, "the power state change");
        for (Iterator<String> names = node.fieldNames(); names.hasNext(); ) {
            String field = names.next();
            if (!FIELDS.contains(field)) {
                throw JsonBody.unknown(field, "power state change");
            }
        }
        JsonNode timeout = node.get("timeout");
        Integer seconds = null;
        if (timeout != null && !timeout.isNull()) {
            // Ironic: "timeout" must be a positive integer of seconds, and came with 1.27 (406 before; a 0 is
            // Python-false there, so it is not taken for a timeout and fails as not positive instead).
            if (!timeout.isIntegralNumber() || !timeout.canConvertToInt()) {
                throw JsonBody.invalid("timeout", timeout, "a positive integer");
            }
            if (timeout.asInt() != 0) {
                Microversions.requireFeature("power timeout", version);
            }
            if (timeout.asInt() <= 0) {
                throw JsonBody.invalid("timeout", timeout, "a positive integer");
            }
            seconds = timeout.asInt();
        }
        String target = JsonBody.requiredText(node, "target");
        Microversions.requirePowerTarget(target, version);
        return new PowerStateRequest(ChangePowerState.newBuilder()
                .setTarget(target)
                .setTimeoutSeconds(seconds)
                .build());
    }
}
