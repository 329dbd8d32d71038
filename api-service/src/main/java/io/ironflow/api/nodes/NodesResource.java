package io.ironflow.api.nodes;

import io.ironflow.api.auth.Access;
import io.ironflow.api.drivers.DriverDefaults;
import io.ironflow.api.intents.IntentGateway;
import io.ironflow.api.versions.ApiVersion;
import io.ironflow.api.versions.RequestedVersion;
import io.ironflow.events.DeleteNode;
import io.ironflow.events.IntentResult;
import io.ironflow.events.NodeSnapshot;
import io.ironflow.policy.IntentRules;
import io.ironflow.policy.Principal;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
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
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jboss.resteasy.reactive.RestResponse;

/**
 * The node resource of Ironic's API v1. Reads come from the node table; writes are intents to the conductor.
 * PATCH and DELETE of /v1/nodes/{ident} live here rather than in a class of their own: a second root resource
 * on /v1/nodes/{ident} would compete with this one for GET /v1/nodes/{ident} and /v1/nodes/detail.
 */
@Path("/v1/nodes")
@Produces(MediaType.APPLICATION_JSON)
public class NodesResource {

    private final IntentGateway intents;
    private final NodeReader reader;
    private final NodeCommands commands;
    private final RequestedVersion version;
    private final DriverDefaults driverDefaults;
    private final Access access;

    NodesResource(IntentGateway intents, NodeReader reader, NodeCommands commands, RequestedVersion version,
            DriverDefaults driverDefaults, Access access) {
        this.access = access;
        this.intents = intents;
        this.reader = reader;
        this.commands = commands;
        this.version = version;
        this.driverDefaults = driverDefaults;
    }

    /** How this request renders nodes: its base URI and version, and the drivers' interfaces. */
    private Uni<NodeDocument.Rendering> rendering(UriInfo uri) {
        ApiVersion requested = version.get();
        return driverDefaults.byDriver().map(defaults -> new NodeDocument.Rendering(uri.getBaseUri(), requested, defaults));
    }

    @POST
    @Consumes(MediaType.WILDCARD)
    public Uni<RestResponse<Map<String, Object>>> create(String body, @Context UriInfo uri) {
        CreateNodeRequest request = CreateNodeRequest.parse(body, version.get());
        Principal who = access.caller();
        IntentRules.required(request.command()).forEach(rule -> access.require(who, rule)); // and the hardware rule

        return intents.submit(request.uuid(), request.command(), who)
                .flatMap(result -> rendering(uri).map(r -> created(result, r, who)));
    }

    private RestResponse<Map<String, Object>> created(IntentResult result, NodeDocument.Rendering rendering, Principal who) {
        return RestResponse.ResponseBuilder.<Map<String, Object>>create(RestResponse.Status.CREATED)
                .location(URI.create(rendering.base() + "v1/nodes/" + result.getNode().getUuid()))
                .entity(NodeDocument.full(access.redact(who, result.getNode()), rendering))
                .build();
    }

    @GET
    @Path("/{ident}")
    public Uni<Map<String, Object>> show(@PathParam("ident") String ident, @QueryParam("fields") String fields,
            @Context UriInfo uri) {
        Principal who = access.caller();
        ApiVersion asked = version.get();
        // Ironic finds the node (404) before it checks the fields (406, 400)
        return reader.require(ident).map(node -> access.redact(who, node)).flatMap(node -> {
            List<String> only = NodeListQuery.fields(fields, asked);
            return rendering(uri).map(r -> only == null ? NodeDocument.full(node, r) : NodeDocument.only(node, r, only));
        });
    }

    /** RFC 6902 JSON Patch; Ironic answers with the node as it is after the change. */
    @PATCH
    @Path("/{ident}")
    @Consumes(MediaType.WILDCARD)
    public Uni<Map<String, Object>> update(@PathParam("ident") String ident, String body, @Context UriInfo uri) {
        NodePatchRequest request = NodePatchRequest.parse(ident, body, version.get(),
                uri.getQueryParameters().getFirst("reset_interfaces"));
        Principal who = access.caller();
        return commands.send(ident, request.command())
                .flatMap(result -> rendering(uri).map(r -> NodeDocument.full(access.redact(who, result.getNode()), r)));
    }

    @DELETE
    @Path("/{ident}")
    public Uni<RestResponse<Void>> delete(@PathParam("ident") String ident) {
        return commands.send(ident, DeleteNode.newBuilder().build()).map(result -> RestResponse.noContent());
    }

    @GET
    public Uni<Map<String, Object>> list(@Context UriInfo uri) {
        return page(NodeListQuery.parse(uri.getQueryParameters(), version.get(), false), uri);
    }

    @GET
    @Path("/detail")
    public Uni<Map<String, Object>> detail(@Context UriInfo uri) {
        return page(NodeListQuery.parse(uri.getQueryParameters(), version.get(), true), uri);
    }

    private Uni<Map<String, Object>> page(NodeListQuery query, UriInfo uri) {
        Principal who = access.caller();
        return reader.list(query).flatMap(nodes -> rendering(uri).map(r -> {
            List<Map<String, Object>> docs = new ArrayList<>(nodes.size());
            for (NodeSnapshot stored : nodes) {
                NodeSnapshot node = access.redact(who, stored);
                docs.add(query.detail() ? NodeDocument.full(node, r)
                        : NodeDocument.only(node, r, query.fields() != null ? query.fields() : NodeDocument.SUMMARY_FIELDS));
            }
            Map<String, Object> collection = new LinkedHashMap<>();
            collection.put("nodes", docs);
            if (nodes.size() == query.limit()) { // Ironic links the next page only after a full one
                String next = uri.getRequestUriBuilder()
                        .replaceQueryParam("limit", query.limit())
                        .replaceQueryParam("marker", nodes.get(nodes.size() - 1).getUuid())
                        .build().toString();
                collection.put("next", next);
                // gophercloud pages by nodes_links only (its issue #2431); Ironic's clients read "next".
                collection.put("nodes_links", List.of(Map.of("rel", "next", "href", next)));
            }
            return collection;
        }));
    }
}
