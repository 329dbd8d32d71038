package io.ironflow.api.ports;

import io.ironflow.api.nodes.NodeReader;
import io.ironflow.api.portgroups.PortgroupReader;
import io.ironflow.api.versions.RequestedVersion;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.UriInfo;
import java.util.Map;

/**
 * A node's ports, {@code /v1/nodes/{ident}/ports} and {@code .../ports/detail}: the list of /v1/ports for one
 * node (a node unknown by uuid or name is 404).
 */
@Path("/v1/nodes/{ident}/ports")
@Produces(MediaType.APPLICATION_JSON)
public class NodePortsResource {

    private final PortReader ports;
    private final NodeReader nodes;
    private final PortgroupReader portgroups;
    private final RequestedVersion version;

    NodePortsResource(PortReader ports, NodeReader nodes, PortgroupReader portgroups, RequestedVersion version) {
        this.ports = ports;
        this.nodes = nodes;
        this.portgroups = portgroups;
        this.version = version;
    }

    @GET
    public Uni<Map<String, Object>> list(@PathParam("ident") String ident, @Context UriInfo uri) {
        return PortList.page(ports, nodes, portgroups, uri, version.get(), ident, null, false);
    }

    @GET
    @Path("/detail")
    public Uni<Map<String, Object>> detail(@PathParam("ident") String ident, @Context UriInfo uri) {
        return PortList.page(ports, nodes, portgroups, uri, version.get(), ident, null, true);
    }

}
