package io.ironflow.api.portgroups;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ironflow.api.QueryBooleans;
import io.ironflow.api.QueryLimit;
import io.ironflow.api.QuerySort;
import io.ironflow.api.errors.ApiError;
import io.ironflow.api.errors.RequestText;
import io.ironflow.api.intents.IntentGateway;
import io.ironflow.api.nodes.JsonBody;
import io.ironflow.api.auth.Access;
import io.ironflow.api.nodes.NodeReader;
import io.ironflow.policy.Policy;
import io.ironflow.policy.Principal;
import io.ironflow.api.versions.ApiVersion;
import io.ironflow.api.versions.Microversions;
import io.ironflow.api.versions.RequestedVersion;
import io.ironflow.events.CreatePortgroup;
import io.ironflow.events.DeletePortgroup;
import io.ironflow.events.IntentResult;
import io.ironflow.events.PortgroupSnapshot;
import io.ironflow.events.UpdatePortgroup;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PATCH;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.MultivaluedMap;
import jakarta.ws.rs.core.UriInfo;
import java.net.URI;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.jboss.resteasy.reactive.RestResponse;

/**
 * Ironic's portgroups resource, {@code /v1/portgroups} (1.23): reads from the portgroups table; writes are intents
 * keyed by the portgroup's node (CreatePortgroup, UpdatePortgroup, DeletePortgroup), so the conductor applies
 * Ironic's rules (unique name and address, no deletion while ports belong to it, no change to an active node's
 * portgroups outside maintenance). A portgroup is named by uuid or name. Lists page by {@code limit}/{@code marker}
 * in creation order, filtered by {@code node} or {@code address}; {@code mode} and {@code properties} need 1.26.
 */
@Path("/v1/portgroups")
@Produces(MediaType.APPLICATION_JSON)
public class PortgroupsResource {

    private static final String PATH = "/v1/portgroups";
    private static final Set<String> CREATE_FIELDS = Set.of("uuid", "address", "name", "node_uuid", "mode",
            "properties", "extra", "standalone_ports_supported");
    private static final Set<String> PARAMETERS = Set.of("node", "address", "fields", "detail", "limit", "marker",
            "sort_key", "sort_dir");

    private final PortgroupReader portgroups;
    private final NodeReader nodes;
    private final IntentGateway intents;
    private final RequestedVersion version;
    private final Access access;

    PortgroupsResource(PortgroupReader portgroups, NodeReader nodes, IntentGateway intents, RequestedVersion version,
            Access access) {
        this.access = access;
        this.portgroups = portgroups;
        this.nodes = nodes;
        this.intents = intents;
        this.version = version;
    }

    @GET
    public Uni<Map<String, Object>> list(@Context UriInfo uri) {
        Microversions.requireResource("portgroups", version.get(), PATH);
        return page(uri, null, false);
    }

    @GET
    @Path("/detail")
    public Uni<Map<String, Object>> detail(@Context UriInfo uri) {
        Microversions.requireResource("portgroups", version.get(), PATH);
        return page(uri, null, true);
    }

    @GET
    @Path("/{ident}")
    public Uni<Map<String, Object>> show(@PathParam("ident") String ident, @Context UriInfo uri) {
        Microversions.requireResource("portgroups", version.get(), PATH);
        List<String> fields = uri.getQueryParameters().getFirst("fields") == null ? PortgroupDocument.FIELDS
                : withLinks(fields(uri.getQueryParameters().getFirst("fields"), version.get()));
        return require(ident, access.caller(), "baremetal:portgroup:get").map(p -> PortgroupDocument.of(p.portgroup(), p.nodeUuid(), uri.getBaseUri(), version.get(), fields));
    }

    @POST
    @Consumes(MediaType.WILDCARD)
    public Uni<RestResponse<Map<String, Object>>> create(String body, @Context UriInfo uri) {
        ApiVersion requested = version.get();
        Microversions.requireResource("portgroups", requested, PATH);
        ObjectNode portgroup = JsonBody.object(body, "the portgroup");
        for (Iterator<String> names = portgroup.fieldNames(); names.hasNext(); ) {
            String field = names.next();
            if (!CREATE_FIELDS.contains(field)) {
                throw ApiError.badRequest("Unknown attribute for portgroup: '" + RequestText.excerpt(field) + "'.");
            }
            Microversions.requirePortgroupField(field, requested);
        }
        String nodeIdent = JsonBody.requiredText(portgroup, "node_uuid");
        String uuid = portgroup.hasNonNull("uuid") ? JsonBody.uuid(portgroup, "uuid") : UUID.randomUUID().toString();
        CreatePortgroup.Builder command = CreatePortgroup.newBuilder().setPortgroupUuid(uuid)
                .setName(JsonBody.optionalText(portgroup, "name", 255))
                .setAddress(JsonBody.optionalText(portgroup, "address", 255))
                .setMode(JsonBody.optionalText(portgroup, "mode", 255))
                .setProperties(JsonBody.dict(portgroup, "properties"))
                .setExtra(JsonBody.dict(portgroup, "extra"));
        JsonNode standalone = portgroup.get("standalone_ports_supported");
        if (standalone != null && !standalone.isNull()) {
            command.setStandalonePortsSupported(standalone.isBoolean() ? standalone.booleanValue()
                    : QueryBooleans.parse(standalone.isTextual() ? standalone.asText() : standalone.toString(),
                            "Invalid input for field/attribute standalone_ports_supported. Value: "));
        }
        Principal who = access.caller();
        return nodes.requireParentUuid(nodeIdent, who, "baremetal:portgroup:create")
                .flatMap(nodeUuid -> intents.submit(nodeUuid.toString(), command.build(), who))
                .map(result -> RestResponse.ResponseBuilder.<Map<String, Object>>create(RestResponse.Status.CREATED)
                        .location(URI.create(uri.getBaseUri() + "v1/portgroups/" + uuid))
                        .entity(render(result, uuid, uri)).build());
    }

    /** RFC 6902 JSON Patch over the portgroup's writable fields; the conductor applies it. */
    @PATCH
    @Path("/{ident}")
    @Consumes(MediaType.WILDCARD)
    public Uni<Map<String, Object>> update(@PathParam("ident") String ident, String body, @Context UriInfo uri) {
        Microversions.requireResource("portgroups", version.get(), PATH);
        if (!(JsonBody.parse(body) instanceof ArrayNode patch) || patch.isEmpty()) {
            throw ApiError.badRequest("The request body must be a non-empty JSON Patch (RFC 6902) array of operations.");
        }
        for (JsonNode op : patch) {
            String path = op.path("path").asText("");
            String field = path.startsWith("/") ? path.substring(1).split("/", 2)[0] : path;
            if (field.equals("node_uuid")) { // as for ports: not built (docs/api-compat.md)
                throw ApiError.badRequest("Moving a portgroup to another node is not supported by Ironflow; delete it and"
                        + " create it on the other node.");
            }
            Microversions.requirePortgroupField(field, version.get());
        }
        Principal who = access.caller();
        return require(ident, who, "baremetal:portgroup:update").flatMap(p -> intents.submit(p.nodeUuid(), UpdatePortgroup.newBuilder()
                        .setPortgroupUuid(p.portgroup().getUuid()).setPatch(patch.toString()).build(), who)
                .map(result -> render(result, p.portgroup().getUuid(), uri)));
    }

    @DELETE
    @Path("/{ident}")
    public Uni<RestResponse<Void>> delete(@PathParam("ident") String ident) {
        Microversions.requireResource("portgroups", version.get(), PATH);
        Principal who = access.caller();
        return require(ident, who, "baremetal:portgroup:delete").flatMap(p -> intents.submit(p.nodeUuid(),
                        DeletePortgroup.newBuilder().setPortgroupUuid(p.portgroup().getUuid()).build(), who))
                .map(result -> RestResponse.noContent());
    }

    /**
     * The portgroup named by uuid or name, if {@code who} passes {@code rule} on its node: 404 with Ironic's message
     * when there is none or the caller may not see its node, else 403.
     */
    public Uni<PortgroupReader.StoredPortgroup> require(String ident, Principal who, String rule) {
        return portgroups.find(ident).flatMap(portgroup -> {
            if (portgroup == null) {
                throw ApiError.notFound("Portgroup " + ident + " could not be found.");
            }
            return nodes.requireUuid(portgroup.nodeUuid(), who, Set.of(rule))
                    .onFailure(ApiError.class).transform(e -> ((ApiError) e).status() == 404
                            ? ApiError.notFound("Portgroup " + ident + " could not be found.") : e)
                    .map(nodeUuid -> portgroup);
        });
    }

    /** {@code nodeIdent}: the node of /v1/nodes/{ident}/portgroups, or null for /v1/portgroups. */
    Uni<Map<String, Object>> page(UriInfo uri, String nodeIdent, boolean detailPath) {
        ApiVersion requested = version.get();
        MultivaluedMap<String, String> query = uri.getQueryParameters();
        for (String name : query.keySet()) {
            if (!PARAMETERS.contains(name)) {
                throw ApiError.badRequest("Unknown parameter for portgroups: '" + RequestText.excerpt(name) + "'.");
            }
        }
        if (query.getFirst("detail") != null) {
            Microversions.requireListParameter("detail", requested);
        }
        boolean detail = detailPath || (query.getFirst("detail") != null
                && QueryBooleans.parse(query.getFirst("detail"), "Invalid value for detail: "));
        List<String> fields = query.getFirst("fields") == null ? null : fields(query.getFirst("fields"), requested);
        if (fields != null && detail) {
            throw ApiError.badRequest("Can not specify ?detail=True and fields in the same request.");
        }
        int limit = QueryLimit.parse(query.getFirst("limit"));
        UUID marker = null;
        if (query.getFirst("marker") != null) {
            marker = NodeReader.parseUuid(query.getFirst("marker"));
            if (marker == null) {
                throw ApiError.badRequest("Expected a UUID for marker but received " + query.getFirst("marker") + ".");
            }
        }
        QuerySort sort = QuerySort.parse(query, QuerySort.PORTGROUPS);
        String node = nodeIdent != null ? nodeIdent : query.getFirst("node");
        String address = query.getFirst("address");
        if (node != null && address != null) {
            throw ApiError.badRequest("Filtering by node and address simultaneously is not supported.");
        }
        List<String> conditions = new ArrayList<>();
        List<Object> values = new ArrayList<>();
        nodes.listedProject("baremetal:portgroup:list", "baremetal:portgroup:list_all").ifPresent(project -> {
            values.add(project);
            conditions.add("node_uuid IN (SELECT uuid FROM nodes WHERE owner = $" + values.size() + " OR lessee = $"
                    + values.size() + ")");
        });
        if (address != null) {
            values.add(address.toLowerCase(Locale.ROOT));
            conditions.add("address = $" + values.size());
        }
        List<String> shown = detail ? PortgroupDocument.FIELDS : fields != null ? withLinks(fields) : PortgroupDocument.SUMMARY;
        Uni<UUID> nodeUuid = node == null ? Uni.createFrom().nullItem() : nodes.requireUuid(node, Policy.NODE_GET);
        UUID after = marker;
        return nodeUuid.flatMap(n -> {
            if (n != null) {
                values.add(n);
                conditions.add("node_uuid = $" + values.size());
            }
            return portgroups.list(conditions, values, after, sort, limit);
        }).map(page -> {
            List<Map<String, Object>> docs = new ArrayList<>();
            page.forEach(p -> docs.add(PortgroupDocument.of(p.portgroup(), p.nodeUuid(), uri.getBaseUri(), requested, shown)));
            String next = page.size() == limit ? uri.getRequestUriBuilder().replaceQueryParam("limit", limit)
                    .replaceQueryParam("marker", page.get(page.size() - 1).portgroup().getUuid()).build().toString() : null;
            Map<String, Object> collection = new LinkedHashMap<>();
            collection.put("portgroups", docs);
            if (next != null) {
                collection.put("next", next);
                collection.put("portgroups_links", List.of(Map.of("rel", "next", "href", next)));
            }
            return collection;
        });
    }

    /** The portgroup as the conductor's answer shows it, in the node's snapshot. */
    private Map<String, Object> render(IntentResult result, String uuid, UriInfo uri) {
        PortgroupSnapshot portgroup = result.getNode().getPortgroups().stream().filter(p -> p.getUuid().equals(uuid))
                .findFirst().orElseThrow(() -> new IllegalStateException("the conductor's answer has no portgroup " + uuid));
        return PortgroupDocument.of(portgroup, result.getNode().getUuid(), uri.getBaseUri(), version.get(), PortgroupDocument.FIELDS);
    }

    private static List<String> withLinks(List<String> fields) {
        List<String> shown = new ArrayList<>(fields);
        if (!shown.contains("links")) {
            shown.add("links");
        }
        return shown;
    }

    private static List<String> fields(String value, ApiVersion version) {
        List<String> fields = new ArrayList<>();
        for (String field : value.split(",")) {
            if (!field.isBlank()) {
                fields.add(field.trim());
            }
        }
        List<String> invalid = fields.stream().filter(f -> !PortgroupDocument.FIELDS.contains(f)
                || !Microversions.showsPortgroupField(f, version)).toList();
        if (!invalid.isEmpty()) {
            throw ApiError.badRequest("Field(s) \"" + String.join(", ", invalid) + "\" are not valid");
        }
        return fields;
    }
}
