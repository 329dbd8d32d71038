package io.ironflow.api.portgroups;

import static io.ironflow.api.documents.IronicRendering.dict;
import static io.ironflow.api.documents.IronicRendering.links;
import static io.ironflow.api.documents.IronicRendering.time;

import io.ironflow.api.documents.IronicRendering;
import io.ironflow.api.versions.ApiVersion;
import io.ironflow.api.versions.Microversions;
import io.ironflow.events.PortgroupSnapshot;
import java.net.URI;
import java.util.List;
import java.util.Map;

/**
 * A portgroup as Ironic's API shows it (api-ref portgroup-create-response), built from a {@link PortgroupSnapshot}
 * and its node's uuid: {@code ports} links to the portgroup's ports (1.24); {@code mode} and {@code properties}
 * from 1.26. Fields newer than the request's version are left out.
 */
public final class PortgroupDocument {

    /** Every portgroup field, in Ironic's order. */
    public static final List<String> FIELDS = List.of("uuid", "address", "name", "node_uuid",
            "standalone_ports_supported", "internal_info", "extra", "mode", "properties", "created_at", "updated_at",
            "links", "ports");
    /** What a list shows without detail (Ironic's portgroup _DEFAULT_RETURN_FIELDS, and links). */
    static final List<String> SUMMARY = List.of("uuid", "address", "name", "links");

    private PortgroupDocument() {
    }

    static Map<String, Object> of(PortgroupSnapshot portgroup, String nodeUuid, URI base, ApiVersion version, List<String> fields) {
        return IronicRendering.document(FIELDS, field -> fields.contains(field) && Microversions.showsPortgroupField(field, version)
                        && (!field.equals("ports") || Microversions.allows("ports of a portgroup", version)),
                field -> switch (field) {
                    case "uuid" -> portgroup.getUuid();
                    case "address" -> portgroup.getAddress();
                    case "name" -> portgroup.getName();
                    case "node_uuid" -> nodeUuid;
                    case "standalone_ports_supported" -> portgroup.getStandalonePortsSupported();
                    case "internal_info" -> dict(portgroup.getInternalInfo());
                    case "extra" -> dict(portgroup.getExtra());
                    case "mode" -> portgroup.getMode();
                    case "properties" -> dict(portgroup.getProperties());
                    case "created_at" -> time(portgroup.getCreatedAt());
                    case "updated_at" -> time(portgroup.getUpdatedAt());
                    case "ports" -> links(base, "portgroups/" + portgroup.getUuid() + "/ports");
                    default -> links(base, "portgroups/" + portgroup.getUuid());
                });
    }
}
