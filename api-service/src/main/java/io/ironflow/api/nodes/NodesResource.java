package io.ironflow.api.nodes;

import io.ironflow.api.errors.ApiError;
import io.ironflow.api.intents.IntentGateway;
import io.ironflow.events.IntentResult;
import io.ironflow.events.NodeSnapshot;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
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

/** The node resource of Ironic's API v1. Reads come from the node table; writes are intents to the conductor. */
@Path("/v1/nodes")
@Produces(MediaType.APPLICATION_JSON)
public class NodesResource {

    /** Ironic's [api]max_limit. */
    static final int MAX_LIMIT = 1000;

    private final IntentGateway intents;
    private final NodeReader reader;

    NodesResource(IntentGateway intents, NodeReader reader) {
        this.intents = intents;
        this.reader = reader;
    }

    @POST
    @Consumes(MediaType.WILDCARD)
    public Uni<RestResponse<Map<String, Object>>> create(String body, @Context UriInfo uri) {
        CreateNodeRequest request = CreateNodeRequest.parse(body);
        return intents.submit(request.uuid(), request.command(), Requester.ANONYMOUS)
                .map(result -> created(result, uri.getBaseUri()));
    }

    private static RestResponse<Map<String, Object>> created(IntentResult result, URI base) {
        if (!result.getAccepted()) {
            throw new ApiError(result.getCode(), result.getErrorMessage());
        }
        return RestResponse.ResponseBuilder.<Map<String, Object>>create(RestResponse.Status.CREATED)
                .location(URI.create(base + "v1/nodes/" + result.getNode().getUuid()))
                .entity(NodeDocument.full(result.getNode(), base))
                .build();
    }

    @GET
    @Path("/{ident}")
    public Uni<Map<String, Object>> show(@PathParam("ident") String ident, @Context UriInfo uri) {
        return reader.find(ident).map(node -> {
            if (node == null) {
                throw ApiError.notFound("Node " + ident + " could not be found.");
            }
            return NodeDocument.full(node, uri.getBaseUri());
        });
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
