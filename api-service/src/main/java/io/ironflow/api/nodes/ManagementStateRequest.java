package io.ironflow.api.nodes;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ironflow.api.QueryBooleans;
import io.ironflow.api.errors.ApiError;
import io.ironflow.api.errors.RequestText;
import io.ironflow.api.versions.ApiVersion;
import io.ironflow.api.versions.Microversions;
import io.ironflow.events.SetBootMode;
import io.ironflow.events.SetSecureBoot;
import java.util.Iterator;
import java.util.Set;

/**
 * The bodies of {@code PUT /v1/nodes/{ident}/states/boot_mode} ({@code {"target": "bios"|"uefi"}}) and
 * {@code .../states/secure_boot} ({@code {"target": true|false}}), Ironic 1.75. Checked as Ironic's
 * NodeStatesController checks them: 406 below 1.75, 400 for a target that is not one of the values.
 */
final class ManagementStateRequest {

    private static final Set<String> BOOT_MODES = Set.of("bios", "uefi");

    private ManagementStateRequest() {
    }

    static SetBootMode bootMode(String body, ApiVersion version) {
        Microversions.requireFeature("boot_mode", version);
        JsonNode target = target(body, "the boot mode change");
        if (!target.isTextual() || !BOOT_MODES.contains(target.textValue())) {
            throw ApiError.badRequest("Invalid boot mode " + RequestText.excerpt(target.asText(target.toString()))
                    + " requested for node.");
        }
        return SetBootMode.newBuilder().setTarget(target.textValue()).build();
    }

    static SetSecureBoot secureBoot(String body, ApiVersion version) {
        Microversions.requireFeature("secure_boot", version);
        JsonNode target = target(body, "the secure boot change");
        boolean value;
        if (target.isBoolean()) {
            value = target.booleanValue();
        } else if (target.isTextual()) { // Ironic's args.boolean takes the text forms too
            value = QueryBooleans.parse(target.textValue(), "Invalid secure boot state requested for node: ");
        } else {
            throw ApiError.badRequest("Invalid secure boot state " + RequestText.excerpt(target.toString())
                    + " requested for node.");
        }
        return SetSecureBoot.newBuilder().setTarget(value).build();
    }

    private static JsonNode target(String body, String describing) {
        ObjectNode node = JsonBody.object(body, describing);
        for (Iterator<String> names = node.fieldNames(); names.hasNext(); ) {
            String field = names.next();
            if (!field.equals("target")) {
                throw JsonBody.unknown(field, describing.replace("the ", ""));
            }
        }
        if (!node.hasNonNull("target")) {
            throw JsonBody.missing("target");
        }
        return node.get("target");
    }
}
