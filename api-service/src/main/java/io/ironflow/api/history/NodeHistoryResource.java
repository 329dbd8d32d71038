package io.ironflow.api.history;

import io.ironflow.api.documents.IronicRendering;
import io.ironflow.api.ListMarker;
import io.ironflow.api.QueryBooleans;
import io.ironflow.api.errors.ApiError;
import io.ironflow.api.auth.Access;
import io.ironflow.policy.Principal;
import io.ironflow.api.QueryLimit;
import io.ironflow.api.nodes.NodeReader;
import io.ironflow.schemas.SecretFields;
import io.ironflow.api.versions.Microversions;
import io.ironflow.api.versions.RequestedVersion;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.UriInfo;
import java.net.URI;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Set;
import java.util.Map;
import java.util.UUID;

/**
 * A node's history (Ironic's NodeHistoryController, API 1.78) from the {@code node_history} table, which the
 * conductors project from ironflow.node-events: every transition, with the intent that caused it in
 * {@code event} and its requester as {@code user}. By uuid it is served after the node is deleted (history
 * outlives the node); by name only while a node has that name. Pages of {@code limit} (at most 1000) after
 * {@code marker} (an entry's uuid), oldest first, with {@code next} after a full page.
 */
@Path("/v1/nodes/{ident}/history")
@Produces(MediaType.APPLICATION_JSON)
public class NodeHistoryResource {

    private static final String PATH = "/v1/nodes/{ident}/history";
    private static final List<String> SUMMARY = List.of("uuid", "created_at", "severity", "event");
    private static final String COLUMNS = "event_id, created_at, severity, event_type, event, conductor, requester";
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSSxxx");

    private final Pool client;
    private final NodeReader nodes;
    private final RequestedVersion version;

    private final Access access;

    NodeHistoryResource(Pool client, NodeReader nodes, RequestedVersion version, Access access) {
        this.access = access;
        this.client = client;
        this.nodes = nodes;
        this.version = version;
    }

    @GET
    public Uni<Map<String, Object>> list(@PathParam("ident") String ident, @QueryParam("detail") String detail,
            @QueryParam("limit") String limit, @QueryParam("marker") String marker, @Context UriInfo uri) {
        return page(ident, detail != null && QueryBooleans.parse(detail, "Invalid value for detail: "), limit, marker, uri);
    }

    /** python-ironicclient's {@code node history list --long} asks for {@code /history/detail}. */
    @GET
    @Path("/detail")
    public Uni<Map<String, Object>> detail(@PathParam("ident") String ident, @QueryParam("limit") String limit,
            @QueryParam("marker") String marker, @Context UriInfo uri) {
        return page(ident, true, limit, marker, uri);
    }

    @GET
    @Path("/{event}")
    public Uni<Map<String, Object>> show(@PathParam("ident") String ident, @PathParam("event") String event,
            @Context UriInfo uri) {
        Microversions.requireResource("history", version.get(), PATH);
        UUID eventId = NodeReader.parseUuid(event);
        return nodeUuid(ident).flatMap(node -> eventId == null ? Uni.createFrom().nullItem()
                : client.preparedQuery("SELECT " + COLUMNS + " FROM node_history WHERE node_uuid = $1 AND event_id = $2")
                        .execute(Tuple.of(node, eventId))
                        .map(rows -> rows.iterator().hasNext() ? document(rows.iterator().next(), node, true, uri.getBaseUri()) : null))
                .map(doc -> {
                    if (doc == null) {
                        throw ApiError.notFound("Node history record " + event + " could not be found.");
                    }
                    return doc;
                });
    }

    private Uni<Map<String, Object>> page(String ident, boolean detail, String limitText, String markerText, UriInfo uri) {
        Microversions.requireResource("history", version.get(), PATH);
        int limit = QueryLimit.parse(limitText);
        UUID marker = markerText == null ? null : NodeReader.parseUuid(markerText);
        if (markerText != null && marker == null) {
            throw ApiError.badRequest("Expected a UUID for marker but received " + markerText + ".");
        }
        return nodeUuid(ident).flatMap(node -> {
            List<Object> values = new ArrayList<>(List.of(node));
            String after = "";
            if (marker != null) {
                values.add(marker);
                after = " AND seq > (SELECT seq FROM node_history WHERE event_id = $2)";
            }
            values.add(limit);
            String sql = "SELECT " + COLUMNS + " FROM node_history WHERE node_uuid = $1" + after
                    + " ORDER BY seq LIMIT $" + values.size();
            return client.preparedQuery(sql).execute(Tuple.from(values)).map(rows -> {
                List<Map<String, Object>> entries = new ArrayList<>();
                rows.forEach(row -> entries.add(document(row, node, detail, uri.getBaseUri())));
                return entries;
            }).flatMap(page -> ListMarker.found(client, page, marker, "node_history", "event_id",
                    "Node history record " + marker + " could not be found.")).map(entries -> {
                Map<String, Object> collection = new LinkedHashMap<>();
                collection.put("history", entries);
                if (entries.size() == limit) {
                    collection.put("next", uri.getRequestUriBuilder().replaceQueryParam("limit", limit)
                            .replaceQueryParam("marker", entries.get(entries.size() - 1).get("uuid")).build().toString());
                }
                return collection;
            });
        });
    }

    /** The node's uuid: from the node table, or, for a uuid no node has any more, from its history. */
    private Uni<UUID> nodeUuid(String ident) {
        Principal who = access.caller();
        return nodes.find(ident).flatMap(node -> {
            if (node != null) {
                access.require(who, Set.of("baremetal:node:history:get"), node, ident);
                return Uni.createFrom().item(UUID.fromString(node.getUuid()));
            }
            if (!access.allows(who, "baremetal:node:list_all", null)) { // a deleted node's history: who may see every node
                throw ApiError.notFound("Node " + ident + " could not be found.");
            }
            UUID uuid = NodeReader.parseUuid(ident);
            Uni<Boolean> hasHistory = uuid == null ? Uni.createFrom().item(false)
                    : client.preparedQuery("SELECT 1 FROM node_history WHERE node_uuid = $1 LIMIT 1").execute(Tuple.of(uuid))
                            .map(rows -> rows.size() > 0);
            return hasHistory.map(found -> {
                if (!found) {
                    throw ApiError.notFound("Node " + ident + " could not be found.");
                }
                return uuid;
            });
        });
    }

    /** One entry in Ironic's shape; {@code user} is the intent's requester. */
    private static Map<String, Object> document(Row row, UUID node, boolean detail, URI base) {
        Map<String, Object> all = new LinkedHashMap<>();
        String uuid = row.getUUID("event_id").toString();
        all.put("uuid", uuid);
        all.put("created_at", TIME.format(row.getOffsetDateTime("created_at").withOffsetSameInstant(ZoneOffset.UTC)));
        all.put("severity", row.getString("severity"));
        all.put("event_type", row.getString("event_type"));
        all.put("event", SecretFields.text(row.getString("event")));
        all.put("conductor", row.getString("conductor"));
        all.put("user", row.getString("requester"));
        if (!detail) {
            all.keySet().retainAll(SUMMARY);
        }
        all.put("links", IronicRendering.links(base, "nodes/" + node + "/history/" + uuid));
        return all;
    }
}
