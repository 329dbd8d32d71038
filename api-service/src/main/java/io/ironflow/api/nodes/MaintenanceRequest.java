package io.ironflow.api.nodes;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ironflow.events.SetMaintenance;
import java.util.Iterator;

/** The body of {@code PUT /v1/nodes/{ident}/maintenance}: optional, at most {@code {"reason": str}}. */
record MaintenanceRequest(SetMaintenance command) {

    static MaintenanceRequest parse(String body) {
        if (body == null || body.isBlank()) { // clients may set maintenance without saying why
            return new MaintenanceRequest(on(null));
        }
        ObjectNode node = JsonBody.object(body, "the maintenance reason");
        for (Iterator<String> names = node.fieldNames(); names.hasNext(); ) {
            String field = names.next();
            if (!field.equals("reason")) {
                throw JsonBody.unknown(field, "maintenance");
            }
        }
        return new MaintenanceRequest(on(JsonBody.optionalText(node, "reason")));
    }

    /** {@code DELETE /v1/nodes/{ident}/maintenance}: no body. */
    static SetMaintenance off() {
        return SetMaintenance.newBuilder().setMaintenance(false).setReason(null).build();
    }

    private static SetMaintenance on(String reason) {
        return SetMaintenance.newBuilder().setMaintenance(true).setReason(reason).build();
    }
}
