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
 * A node's ports, {@code /v1/nodes/{ident}/ports} and {@code .../ports/detail}: the list of /v1/ports for one
 * node (a node unknown by uuid or name is 404). The page itself is {@link PortPages}'.
 */
@Path("/v1/nodes/{ident}/ports")
@Produces(MediaType.APPLICATION_JSON)
public class NodePortsResource {

    private final PortPages pages;

    NodePortsResource(PortPages pages) {
        this.pages = pages;
    }

    @GET
    public Uni<Map<String, Object>> list(@PathParam("ident") String ident, @Context UriInfo uri) {
        return pages.ofNode(ident, uri, false);
    }

    @GET
    @Path("/detail")
    public Uni<Map<String, Object>> detail(@PathParam("ident") String ident, @Context UriInfo uri) {
        return pages.ofNode(ident, uri, true);
    }
}
