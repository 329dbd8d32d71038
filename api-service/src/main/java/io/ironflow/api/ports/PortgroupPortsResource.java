package io.ironflow.api.ports;

import io.ironflow.api.nodes.NodeReader;
import io.ironflow.api.portgroups.PortgroupReader;
import io.ironflow.api.versions.ApiVersion;
import io.ironflow.api.versions.Microversions;
import io.ironflow.api.versions.RequestedVersion;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.UriInfo;
import java.util.Map;

/**
 * A portgroup's ports, {@code /v1/portgroups/{ident}/ports} and {@code .../ports/detail} (1.24): the list of
 * /v1/ports for one portgroup, named by uuid or name (unknown: 404).
 */
@Path("/v1/portgroups/{ident}/ports")
@Produces(MediaType.APPLICATION_JSON)
public class PortgroupPortsResource extends ScopedPortsResource {

    private static final String PATH = "/v1/portgroups/{ident}/ports";

    PortgroupPortsResource(PortReader ports, NodeReader nodes, PortgroupReader portgroups, RequestedVersion version) {
        super(ports, nodes, portgroups, version);
    }

    @Override
    Uni<Map<String, Object>> page(String ident, UriInfo uri, ApiVersion version, boolean detail) {
        Microversions.requireResource("ports of a portgroup", version, PATH);
        return page(uri, version, null, ident, detail);
    }
}
