package io.ironflow.api.nodes;

import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.jboss.resteasy.reactive.RestResponse;

/** Setting and clearing a node's maintenance mode; Ironic answers both with 202 and no body. */
@Path("/v1/nodes/{ident}/maintenance")
@Produces(MediaType.APPLICATION_JSON)
public class NodeMaintenanceResource {

    private final NodeCommands commands;

    NodeMaintenanceResource(NodeCommands commands) {
        this.commands = commands;
    }

    @PUT
    @Consumes(MediaType.WILDCARD)
    public Uni<RestResponse<Void>> set(@PathParam("ident") String ident, String body) {
        MaintenanceRequest request = MaintenanceRequest.parse(body);
        return commands.send(ident, request.command()).map(result -> RestResponse.accepted());
    }

    @DELETE
    public Uni<RestResponse<Void>> clear(@PathParam("ident") String ident) {
        return commands.send(ident, MaintenanceRequest.off()).map(result -> RestResponse.accepted());
    }
}
