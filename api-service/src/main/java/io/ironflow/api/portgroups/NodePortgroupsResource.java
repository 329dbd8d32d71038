package io.ironflow.api.portgroups;

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
 * A node's portgroups, {@code /v1/nodes/{ident}/portgroups} and {@code .../portgroups/detail} (1.24): the list of
 * /v1/portgroups for one node (a node unknown by uuid or name is 404).
 */
@Path("/v1/nodes/{ident}/portgroups")
@Produces(MediaType.APPLICATION_JSON)
public class NodePortgroupsResource {

    private static final String PATH = "/v1/nodes/{ident}/portgroups";

    private final PortgroupsResource portgroups;
    private final RequestedVersion version;

    NodePortgroupsResource(PortgroupsResource portgroups, RequestedVersion version) {
        this.portgroups = portgroups;
        this.version = version;
    }

    @GET
    public Uni<Map<String, Object>> list(@PathParam("ident") String ident, @Context UriInfo uri) {
        Microversions.requireResource("portgroups of a node", version.get(), PATH);
        return portgroups.page(uri, ident, false);
    }

    @GET
    @Path("/detail")
    public Uni<Map<String, Object>> detail(@PathParam("ident") String ident, @Context UriInfo uri) {
        Microversions.requireResource("portgroups of a node", version.get(), PATH);
        return portgroups.page(uri, ident, true);
    }
}
