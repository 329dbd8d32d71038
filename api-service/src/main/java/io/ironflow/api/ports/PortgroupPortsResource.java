package io.ironflow.api.ports;

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
 * /v1/ports for one portgroup, named by uuid or name (unknown: 404). The page itself is {@link PortPages}'.
 */
@Path("/v1/portgroups/{ident}/ports")
@Produces(MediaType.APPLICATION_JSON)
public class PortgroupPortsResource {

    private final PortPages pages;

    PortgroupPortsResource(PortPages pages) {
        this.pages = pages;
    }

    @GET
    public Uni<Map<String, Object>> list(@PathParam("ident") String ident, @Context UriInfo uri) {
        return pages.ofPortgroup(ident, uri, false);
    }

    @GET
    @Path("/detail")
    public Uni<Map<String, Object>> detail(@PathParam("ident") String ident, @Context UriInfo uri) {
        return pages.ofPortgroup(ident, uri, true);
    }
}
