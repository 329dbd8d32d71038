package io.ironflow.api.ports;

import io.ironflow.api.nodes.NodeReader;
import io.ironflow.api.portgroups.PortgroupReader;
import io.ironflow.api.versions.ApiVersion;
import io.ironflow.api.versions.RequestedVersion;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.UriInfo;
import java.util.Map;

/**
 * A node's ports, {@code /v1/nodes/{ident}/ports} and {@code .../ports/detail}: the list of /v1/ports for one
 * node (a node unknown by uuid or name is 404).
 */
@Path("/v1/nodes/{ident}/ports")
@Produces(MediaType.APPLICATION_JSON)
public class NodePortsResource extends ScopedPortsResource {

    NodePortsResource(PortReader ports, NodeReader nodes, PortgroupReader portgroups, RequestedVersion version) {
        super(ports, nodes, portgroups, version);
    }

    @Override
    Uni<Map<String, Object>> page(String ident, UriInfo uri, ApiVersion version, boolean detail) {
        return page(uri, version, ident, null, detail);
    }
}
