package io.ironflow.api.ports;

import static io.ironflow.api.documents.IronicRendering.dict;
import static io.ironflow.api.documents.IronicRendering.links;
import static io.ironflow.api.documents.IronicRendering.time;

import io.ironflow.api.documents.IronicRendering;
import io.ironflow.api.versions.ApiVersion;
import io.ironflow.api.versions.Microversions;
import io.ironflow.events.PortSnapshot;
import java.net.URI;
import java.util.List;
import java.util.Map;

/**
 * A port as Ironic's API shows it (api-ref port-create-response), built from a {@link PortSnapshot} and the node's
 * uuid. Fields newer than the request's version are left out; {@code is_smartnic} is false (no smart NICs).
 */
public final class PortDocument {

    /** Every port field, in Ironic's order. */
    public static final List<String> FIELDS = List.of("uuid", "address", "node_uuid", "portgroup_uuid",
            "local_link_connection", "pxe_enabled", "physical_network", "internal_info", "extra", "is_smartnic",
            "created_at", "updated_at", "links");
    /** What a list shows without detail (Ironic's port _DEFAULT_RETURN_FIELDS, and links). */
    static final List<String> SUMMARY = List.of("uuid", "address", "links");

    private PortDocument() {
    }

    static Map<String, Object> of(PortSnapshot port, String nodeUuid, URI base, ApiVersion version, List<String> fields) {
        return IronicRendering.document(FIELDS, field -> fields.contains(field) && Microversions.showsPortField(field, version),
                field -> switch (field) {
                    case "uuid" -> port.getUuid();
                    case "address" -> port.getAddress();
                    case "node_uuid" -> nodeUuid;
                    case "portgroup_uuid" -> port.getPortgroupUuid();
                    case "local_link_connection" -> dict(port.getLocalLinkConnection());
                    case "pxe_enabled" -> port.getPxeEnabled();
                    case "physical_network" -> port.getPhysicalNetwork();
                    case "internal_info" -> dict(port.getInternalInfo());
                    case "extra" -> dict(port.getExtra());
                    case "is_smartnic" -> false;
                    case "created_at" -> time(port.getCreatedAt());
                    case "updated_at" -> time(port.getUpdatedAt());
                    default -> links(base, "ports/" + port.getUuid());
                });
    }
}
