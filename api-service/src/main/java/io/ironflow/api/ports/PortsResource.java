package io.ironflow.api.ports;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ironflow.api.QueryBooleans;
import io.ironflow.api.auth.Access;
import io.ironflow.api.errors.ApiError;
import io.ironflow.policy.Principal;
import io.ironflow.api.errors.RequestText;
import io.ironflow.api.intents.IntentGateway;
import io.ironflow.api.nodes.JsonBody;
import io.ironflow.api.nodes.NodeReader;
import io.ironflow.api.portgroups.PortgroupReader;
import io.ironflow.api.versions.ApiVersion;
import io.ironflow.api.versions.Microversions;
import io.ironflow.api.versions.RequestedVersion;
import io.ironflow.events.CreatePort;
import io.ironflow.events.DeletePort;
import io.ironflow.events.IntentResult;
import io.ironflow.events.PortSnapshot;
import io.ironflow.events.UpdatePort;
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
import jakarta.ws.rs.core.UriInfo;
import java.net.URI;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.jboss.resteasy.reactive.RestResponse;

/**
 * Ironic's ports resource, {@code /v1/ports}: reads from the ports table; writes are intents keyed by the port's
 * node (CreatePort, UpdatePort, DeletePort), so a node's port changes are ordered with its other intents and the
 * conductor applies Ironic's rules (a unique MAC address, no change to an active node's ports outside
 * maintenance). Lists page by {@code limit}/{@code marker} in creation order, filtered by {@code node},
 * {@code node_uuid} and {@code address}.
 */
@Path("/v1/ports")
@Produces(MediaType.APPLICATION_JSON)
public class PortsResource {

    private static final Set<String> CREATE_FIELDS = Set.of("uuid", "address", "node_uuid", "pxe_enabled",
            "physical_network", "local_link_connection", "extra", "portgroup_uuid");

    private final PortReader ports;
    private final NodeReader nodes;
    private final PortgroupReader portgroups;
    private final IntentGateway intents;
    private final RequestedVersion version;

    private final Access access;

    PortsResource(PortReader ports, NodeReader nodes, PortgroupReader portgroups, IntentGateway intents,
            RequestedVersion version, Access access) {
        this.access = access;
        this.ports = ports;
        this.nodes = nodes;
        this.portgroups = portgroups;
        this.intents = intents;
        this.version = version;
    }

    @GET
    public Uni<Map<String, Object>> list(@Context UriInfo uri) {
        return PortList.page(ports, nodes, portgroups, uri, version.get(), null, null, false);
    }

    @GET
    @Path("/detail")
    public Uni<Map<String, Object>> detail(@Context UriInfo uri) {
        return PortList.page(ports, nodes, portgroups, uri, version.get(), null, null, true);
    }

    @GET
    @Path("/{uuid}")
    public Uni<Map<String, Object>> show(@PathParam("uuid") String uuid, @Context UriInfo uri) {
        String asked = uri.getQueryParameters().getFirst("fields");
        List<String> fields = asked == null ? PortDocument.FIELDS : PortList.withLinks(fields(asked, version.get()));
        return require(uuid, access.caller(), "baremetal:port:get").map(p -> PortDocument.of(p.port(), p.nodeUuid(), uri.getBaseUri(), version.get(), fields));
    }

    @POST
    @Consumes(MediaType.WILDCARD)
    public Uni<RestResponse<Map<String, Object>>> create(String body, @Context UriInfo uri) {
        ApiVersion requested = version.get();
        ObjectNode port = JsonBody.object(body, "the port");
        for (Iterator<String> names = port.fieldNames(); names.hasNext(); ) {
            String field = names.next();
            if (!CREATE_FIELDS.contains(field)) {
                throw ApiError.badRequest("Unknown attribute for port: '" + RequestText.excerpt(field) + "'.");
            }
            Microversions.requirePortField(field, requested);
        }
        String address = JsonBody.requiredText(port, "address");
        String nodeIdent = JsonBody.requiredText(port, "node_uuid");
        String uuid = port.hasNonNull("uuid") ? JsonBody.uuid(port, "uuid") : UUID.randomUUID().toString();
        CreatePort.Builder command = CreatePort.newBuilder().setPortUuid(uuid).setAddress(address)
                .setPhysicalNetwork(JsonBody.optionalText(port, "physical_network", 255))
                .setLocalLinkConnection(JsonBody.dict(port, "local_link_connection"))
                .setExtra(JsonBody.dict(port, "extra"))
                .setPortgroupUuid(port.hasNonNull("portgroup_uuid") ? JsonBody.uuid(port, "portgroup_uuid") : null);
        JsonNode pxe = port.get("pxe_enabled");
        if (pxe != null && !pxe.isNull()) { // Ironic's args.boolean: the CLI's --pxe-enabled false sends text
            if (!pxe.isBoolean() && !pxe.isTextual()) {
                throw ApiError.badRequest("Invalid input for field/attribute pxe_enabled. Value: '"
                        + RequestText.excerpt(pxe.toString()) + "'. Expected a boolean.");
            }
            command.setPxeEnabled(pxe.isBoolean() ? pxe.booleanValue()
                    : QueryBooleans.parse(pxe.asText(), "Invalid input for field/attribute pxe_enabled. Value: "));
        }
        Principal who = access.caller();
        return nodes.requireParentUuid(nodeIdent, who, "baremetal:port:create")
                .flatMap(nodeUuid -> intents.submit(nodeUuid.toString(), command.build(), who))
                .map(result -> RestResponse.ResponseBuilder.<Map<String, Object>>create(RestResponse.Status.CREATED)
                        .location(URI.create(uri.getBaseUri() + "v1/ports/" + uuid))
                        .entity(render(result, uuid, uri)).build());
    }

    /** RFC 6902 JSON Patch over the port's writable fields; the conductor applies it. */
    @PATCH
    @Path("/{uuid}")
    @Consumes(MediaType.WILDCARD)
    public Uni<Map<String, Object>> update(@PathParam("uuid") String uuid, String body, @Context UriInfo uri) {
        if (!(JsonBody.parse(body) instanceof ArrayNode patch) || patch.isEmpty()) {
            throw ApiError.badRequest("The request body must be a non-empty JSON Patch (RFC 6902) array of operations.");
        }
        for (JsonNode op : patch) {
            String path = op.path("path").asText("");
            String field = path.startsWith("/") ? path.substring(1).split("/", 2)[0] : path;
            if (field.equals("node_uuid")) { // Ironic moves ports between nodes; Ironflow does not (docs/api-compat.md)
                throw ApiError.badRequest("Moving a port to another node is not supported by Ironflow; delete it and"
                        + " create it on the other node.");
            }
            Microversions.requirePortField(field, version.get());
        }
        Principal who = access.caller();
        // rendered by the stored uuid: the path's may be spelt another way (upper case) and still name the port
        return require(uuid, who, "baremetal:port:update").flatMap(p -> intents.submit(p.nodeUuid(),
                        UpdatePort.newBuilder().setPortUuid(p.port().getUuid()).setPatch(patch.toString()).build(), who)
                .map(result -> render(result, p.port().getUuid(), uri)));
    }

    @DELETE
    @Path("/{uuid}")
    public Uni<RestResponse<Void>> delete(@PathParam("uuid") String uuid) {
        Principal who = access.caller();
        return require(uuid, who, "baremetal:port:delete").flatMap(p -> intents.submit(p.nodeUuid(),
                        DeletePort.newBuilder().setPortUuid(p.port().getUuid()).build(), who))
                .map(result -> RestResponse.noContent());
    }

    /** The port, if {@code who} passes {@code rule} on its node: 404 as for no port when it may not see the node, else 403. */
    private Uni<PortReader.StoredPort> require(String ident, Principal who, String rule) {
        UUID uuid = NodeReader.parseUuid(ident);
        Uni<PortReader.StoredPort> found = uuid == null ? Uni.createFrom().nullItem() : ports.find(uuid);
        return found.flatMap(port -> {
            if (port == null) {
                throw ApiError.notFound("Port " + ident + " could not be found.");
            }
            return nodes.requireUuid(port.nodeUuid(), who, Set.of(rule))
                    .onFailure(ApiError.class).transform(e -> ((ApiError) e).status() == 404
                            ? ApiError.notFound("Port " + ident + " could not be found.") : e)
                    .map(nodeUuid -> port);
        });
    }

    /** The port as the conductor's answer shows it, in the node's snapshot. */
    private Map<String, Object> render(IntentResult result, String uuid, UriInfo uri) {
        PortSnapshot port = result.getNode().getPorts().stream().filter(p -> p.getUuid().equals(uuid)).findFirst()
                .orElseThrow(() -> new IllegalStateException("the conductor's answer has no port " + uuid));
        return PortDocument.of(port, result.getNode().getUuid(), uri.getBaseUri(), version.get(), PortDocument.FIELDS);
    }

    /** Ironic's port collection, for /v1/ports and /v1/nodes/{ident}/ports. */
    static Map<String, Object> collection(List<Map<String, Object>> docs, String next) {
        Map<String, Object> collection = new LinkedHashMap<>();
        collection.put("ports", docs);
        if (next != null) {
            collection.put("next", next);
            collection.put("ports_links", List.of(Map.of("rel", "next", "href", next)));
        }
        return collection;
    }

    static List<String> fields(String value, ApiVersion version) {
        List<String> fields = new ArrayList<>();
        for (String field : value.split(",")) {
            if (!field.isBlank()) {
                fields.add(field.trim());
            }
        }
        List<String> invalid = fields.stream().filter(f -> !PortDocument.FIELDS.contains(f)
                || !Microversions.showsPortField(f, version)).toList();
        if (!invalid.isEmpty()) {
            throw ApiError.badRequest("Field(s) \"" + String.join(", ", invalid) + "\" are not valid");
        }
        return fields;
    }

    static boolean bool(String name, String value) {
        return QueryBooleans.parse(value, "Invalid value for " + name + ": ");
    }
}
