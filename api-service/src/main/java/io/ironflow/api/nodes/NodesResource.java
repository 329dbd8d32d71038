package io.ironflow.api.nodes;

import io.ironflow.api.errors.ApiError;
import io.ironflow.api.intents.IntentGateway;
import io.ironflow.events.DeleteNode;
import io.ironflow.events.IntentResult;
import io.ironflow.events.NodeSnapshot;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PATCH;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.UriInfo;
import java.net.URI;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.BiFunction;
import org.jboss.resteasy.reactive.RestResponse;

/**
 * The node resource of Ironic's API v1. Reads come from the node table; writes are intents to the conductor.
 * PATCH and DELETE of /v1/nodes/{ident} live here rather than in a class of their own: a second root resource
 * on /v1/nodes/{ident} would compete with this one for GET /v1/nodes/{ident} and /v1/nodes/detail.
 */
@Path("/v1/nodes")
@Produces(MediaType.APPLICATION_JSON)
public class NodesResource {

    /** Ironic's [api]max_limit. */
    static final int MAX_LIMIT = 1000;

    private final IntentGateway intents;
    private final NodeReader reader;
    private final NodeCommands commands;

    NodesResource(IntentGateway intents, NodeReader reader, NodeCommands commands) {
        this.intents = intents;
        this.reader = reader;
        this.commands = commands;
    }

    @POST
    @Consumes(MediaType.WILDCARD)
    public Uni<RestResponse<Map<String, Object>>> create(String body, @Context UriInfo uri) {
        CreateNodeRequest request = CreateNodeRequest.parse(body);
        return intents.submit(request.uuid(), request.command(), Requester.ANONYMOUS)
                .map(result -> created(result, uri.getBaseUri()));
    }

    private static RestResponse<Map<String, Object>> created(IntentResult result, URI base) {
        return RestResponse.ResponseBuilder.<Map<String, Object>>create(RestResponse.Status.CREATED)
                .location(URI.create(base + "v1/nodes/" + result.getNode().getUuid()))
                .entity(NodeDocument.full(result.getNode(), base))
                .build();
    }

    @GET
    @Path("/{ident}")
    public Uni<Map<String, Object>> show(@PathParam("ident") String ident, @Context UriInfo uri) {
        return reader.require(ident).map(node -> NodeDocument.full(node, uri.getBaseUri()));
    }

    /** RFC 6902 JSON Patch; Ironic answers with the node as it is after the change. */
    @PATCH
    @Path("/{ident}")
    @Consumes(MediaType.WILDCARD)
    public Uni<Map<String, Object>> update(@PathParam("ident") String ident, String body, @Context UriInfo uri) {
        NodePatchRequest request = NodePatchRequest.parse(body);
        return commands.send(ident, request.command()).map(result -> NodeDocument.full(result.getNode(), uri.getBaseUri()));
    }

    @DELETE
    @Path("/{ident}")
    public Uni<RestResponse<Void>> delete(@PathParam("ident") String ident) {
        return commands.send(ident, DeleteNode.newBuilder().build()).map(result -> RestResponse.noContent());
    }

    @GET
    public Uni<Map<String, Object>> list(@QueryParam("limit") @DefaultValue("1000") int limit,
            @QueryParam("marker") String marker, @QueryParam("detail") @DefaultValue("false") boolean detail,
            @Context UriInfo uri) {
        return page(limit, marker, uri, detail ? NodeDocument::full : NodeDocument::summary);
    }

    @GET
    @Path("/detail")
    public Uni<Map<String, Object>> detail(@QueryParam("limit") @DefaultValue("1000") int limit,
            @QueryParam("marker") String marker, @Context UriInfo uri) {
        return page(limit, marker, uri, NodeDocument::full);
    }

    private Uni<Map<String, Object>> page(int limit, String marker, UriInfo uri,
            BiFunction<NodeSnapshot, URI, Map<String, Object>> render) {
        if (limit <= 0) {
            throw ApiError.badRequest("Limit must be positive");
        }
        int pageSize = Math.min(limit, MAX_LIMIT);
        UUID after = null;
        if (marker != null) {
            after = NodeReader.parseUuid(marker);
            if (after == null) {
                throw ApiError.badRequest("Expected a UUID for marker but received " + marker + ".");
            }
        }
        URI base = uri.getBaseUri();
        return reader.list(pageSize, after).map(nodes -> {
            Map<String, Object> collection = new LinkedHashMap<>();
            List<Map<String, Object>> docs = nodes.stream().map(node -> render.apply(node, base)).toList();
            collection.put("nodes", docs);
            if (nodes.size() == pageSize) { // Ironic links the next page only after a full one
                collection.put("next", uri.getRequestUriBuilder()
                        .replaceQueryParam("limit", pageSize)
                        .replaceQueryParam("marker", nodes.get(nodes.size() - 1).getUuid())
                        .build().toString());
            }
            return collection;
        });
    }
}
