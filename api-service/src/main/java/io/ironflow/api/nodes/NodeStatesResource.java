package io.ironflow.api.nodes;

import io.ironflow.api.versions.RequestedVersion;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.UriInfo;
import java.util.Map;
import org.jboss.resteasy.reactive.RestResponse;

/**
 * A node's states (Ironic's NodeStatesController): read from the node table, changed by intents. Bodies are
 * checked for shape before anything is sent; the verbs themselves are the conductor's to judge.
 */
@Path("/v1/nodes/{ident}/states")
@Produces(MediaType.APPLICATION_JSON)
public class NodeStatesResource {

    private final NodeReader reader;
    private final NodeCommands commands;
    private final RequestedVersion version;

    NodeStatesResource(NodeReader reader, NodeCommands commands, RequestedVersion version) {
        this.reader = reader;
        this.commands = commands;
        this.version = version;
    }

    @GET
    public Uni<Map<String, Object>> show(@PathParam("ident") String ident) {
        return reader.requireStates(ident, "baremetal:node:get_states").map(NodeDocument::states);
    }

    @PUT
    @Path("/provision")
    @Consumes(MediaType.WILDCARD)
    public Uni<RestResponse<Void>> provision(@PathParam("ident") String ident, String body, @Context UriInfo uri) {
        ProvisionStateRequest request = ProvisionStateRequest.parse(body, version.get()); // a bad body is 400 before any lookup
        return commands.send(ident, request.command())
                .map(result -> NodeCommands.acceptedStates(result, uri.getBaseUri()));
    }

    @PUT
    @Path("/boot_mode")
    @Consumes(MediaType.WILDCARD)
    public Uni<RestResponse<Void>> bootMode(@PathParam("ident") String ident, String body, @Context UriInfo uri) {
        return commands.send(ident, ManagementStateRequest.bootMode(body, version.get()))
                .map(result -> NodeCommands.acceptedStates(result, uri.getBaseUri()));
    }

    @PUT
    @Path("/secure_boot")
    @Consumes(MediaType.WILDCARD)
    public Uni<RestResponse<Void>> secureBoot(@PathParam("ident") String ident, String body, @Context UriInfo uri) {
        return commands.send(ident, ManagementStateRequest.secureBoot(body, version.get()))
                .map(result -> NodeCommands.acceptedStates(result, uri.getBaseUri()));
    }

    @PUT
    @Path("/power")
    @Consumes(MediaType.WILDCARD)
    public Uni<RestResponse<Void>> power(@PathParam("ident") String ident, String body, @Context UriInfo uri) {
        PowerStateRequest request = PowerStateRequest.parse(body, version.get());
        return commands.send(ident, request.command())
                .map(result -> NodeCommands.acceptedStates(result, uri.getBaseUri()));
    }
}
