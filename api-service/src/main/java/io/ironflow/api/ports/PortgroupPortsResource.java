package io.ironflow.api.ports;

import io.ironflow.api.nodes.NodeReader;
import io.ironflow.api.portgroups.PortgroupReader;
import io.ironflow.api.versions.Microversions;
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
 * A portgroup's ports, {@code /v1/portgroups/{ident}/ports} and {@code .../ports/detail} (1.24): the list of
 * /v1/ports for one portgroup, named by uuid or name (unknown: 404).
 */
@Path("/v1/portgroups/{ident}/ports")
@Produces(MediaType.APPLICATION_JSON)
public class PortgroupPortsResource {

    private static final String PATH = "/v1/portgroups/{ident}/ports";

    private final PortReader ports;
    private final NodeReader nodes;
    private final PortgroupReader portgroups;
    private final RequestedVersion version;

    PortgroupPortsResource(PortReader ports, NodeReader nodes, PortgroupReader portgroups, RequestedVersion version) {
        this.ports = ports;
        this.nodes = nodes;
        this.portgroups = portgroups;
        this.version = version;
    }

    @GET
    public Uni<Map<String, Object>> list(@PathParam("ident") String ident, @Context UriInfo uri) {
        Microversions.requireResource("ports of a portgroup", version.get(), PATH);
        return PortList.page(ports, nodes, portgroups, uri, version.get(), null, ident, false);
    }

    @GET
    @Path("/detail")
    public Uni<Map<String, Object>> detail(@PathParam("ident") String ident, @Context UriInfo uri) {
        Microversions.requireResource("ports of a portgroup", version.get(), PATH);
        return PortList.page(ports, nodes, portgroups, uri, version.get(), null, ident, true);
    }
}
