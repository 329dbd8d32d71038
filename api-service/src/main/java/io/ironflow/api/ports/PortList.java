package io.ironflow.api.ports;

import io.ironflow.api.errors.ApiError;
import io.ironflow.api.errors.RequestText;
import io.ironflow.api.QueryLimit;
import io.ironflow.api.QuerySort;
import io.ironflow.api.nodes.NodeReader;
import io.ironflow.api.portgroups.PortgroupReader;
import io.ironflow.api.versions.Microversions;
import io.ironflow.api.versions.ApiVersion;
import io.ironflow.policy.Policy;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.core.MultivaluedMap;
import jakarta.ws.rs.core.UriInfo;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.UUID;

/**
 * One page of ports as Ironic lists them: filters {@code node} (uuid or name), {@code node_uuid} and
 * {@code address}, {@code fields} or {@code detail}, {@code limit} (at most 1000) after {@code marker} (a port
 * uuid), {@code sort_dir}; sorted by creation ({@code sort_key} id, the default, or created_at). {@code next} (and
 * {@code ports_links}, for gophercloud) after a full page. An unknown parameter is 400.
 */
final class PortList {

    private static final Set<String> PARAMETERS = Set.of("node", "node_uuid", "portgroup", "address", "fields", "detail",
            "limit", "marker", "sort_key", "sort_dir", "shard");

    private PortList() {
    }

    /**
     * {@code nodeIdent}: the node of /v1/nodes/{ident}/ports, or null; {@code portgroupIdent}: the portgroup of
     * /v1/portgroups/{ident}/ports, or null (then the {@code portgroup} parameter, 1.24, may name one).
     */
    static Uni<java.util.Map<String, Object>> page(PortReader ports, NodeReader nodes, PortgroupReader portgroups,
            UriInfo uri, ApiVersion version, String nodeIdent, String portgroupIdent, boolean detailPath) {
        MultivaluedMap<String, String> query = uri.getQueryParameters();
        for (String name : query.keySet()) {
            if (!PARAMETERS.contains(name)) {
                throw ApiError.badRequest("Unknown parameter for ports: '" + name + "'.");
            }
        }
        boolean detail = detailPath || (query.getFirst("detail") != null && PortsResource.bool("detail", query.getFirst("detail")));
        List<String> fields = query.getFirst("fields") == null ? null : PortsResource.fields(query.getFirst("fields"), version);
        if (fields != null && detail) {
            throw ApiError.badRequest("Can not specify ?detail=True and fields in the same request.");
        }
        int limit = QueryLimit.parse(query.getFirst("limit"));
        UUID marker = query.getFirst("marker") == null ? null : uuid("marker", query.getFirst("marker"));
        QuerySort sort = QuerySort.parse(query, QuerySort.PORTS);
        // Ironic: node_uuid or node, the first that is given
        String node = nodeIdent != null ? nodeIdent : query.getFirst("node_uuid") != null ? query.getFirst("node_uuid") : query.getFirst("node");
        List<String> conditions = new ArrayList<>();
        List<Object> values = new ArrayList<>();
        nodes.listedProject("baremetal:port:list", "baremetal:port:list_all").ifPresent(project -> {
            values.add(project);
            conditions.add("node_uuid IN (SELECT uuid FROM nodes WHERE owner = $" + values.size() + " OR lessee = $"
                    + values.size() + ")");
        });
        String shards = query.getFirst("shard");
        if (shards != null) { // 1.82: the ports of nodes in these shards (a comma-separated list)
            Microversions.requireFeature("ports by shard", version);
            List<String> names = java.util.Arrays.stream(shards.split(",")).map(String::trim).filter(s -> !s.isEmpty()).toList();
            if (names.isEmpty()) {
                throw ApiError.badRequest("Invalid input for field/attribute shard. Value: '" + RequestText.excerpt(shards)
                        + "'. Expected a comma-separated list of shards.");
            }
            values.add(names.toArray(String[]::new));
            conditions.add("node_uuid IN (SELECT uuid FROM nodes WHERE shard = ANY($" + values.size() + "))");
        }
        String address = query.getFirst("address");
        if (address != null) {
            values.add(address.toLowerCase(Locale.ROOT));
            conditions.add("address = $" + values.size());
        }
        Uni<UUID> nodeUuid = node == null ? Uni.createFrom().nullItem()
                : nodes.requireUuid(node, Policy.NODE_GET);
        String portgroup = portgroupIdent != null ? portgroupIdent : query.getFirst("portgroup");
        if (portgroupIdent == null && portgroup != null) {
            Microversions.requireFeature("ports of a portgroup", version);
        }
        if (portgroup != null) {
            Uni<UUID> ofNode = nodeUuid;
            // Another project's portgroup is as missing as one that is not there (Ironic: 404 for both), or the
            // answer would tell which portgroup UUIDs and names exist.
            nodeUuid = portgroups.find(portgroup).flatMap(pg -> {
                if (pg == null) {
                    throw ApiError.notFound("Portgroup " + portgroup + " could not be found.");
                }
                return nodes.requireUuid(pg.nodeUuid(), "baremetal:portgroup:get")
                        .onFailure(ApiError.class).transform(e -> ((ApiError) e).status() == 404
                                ? ApiError.notFound("Portgroup " + portgroup + " could not be found.") : e)
                        .flatMap(visible -> {
                            values.add(UUID.fromString(pg.portgroup().getUuid()));
                            conditions.add("portgroup_uuid = $" + values.size());
                            return ofNode;
                        });
            });
        }
        List<String> shown = detail ? PortDocument.FIELDS : fields != null ? withLinks(fields) : PortDocument.SUMMARY;
        return nodeUuid.flatMap(n -> {
            if (n != null) {
                values.add(n);
                conditions.add("node_uuid = $" + values.size());
            }
            return ports.list(conditions, values, marker, sort, limit);
        }).map(page -> {
            List<java.util.Map<String, Object>> docs = new ArrayList<>();
            page.forEach(p -> docs.add(PortDocument.of(p.port(), p.nodeUuid(), uri.getBaseUri(), version, shown)));
            String next = page.size() == limit ? uri.getRequestUriBuilder().replaceQueryParam("limit", limit)
                    .replaceQueryParam("marker", page.get(page.size() - 1).port().getUuid()).build().toString() : null;
            return PortsResource.collection(docs, next);
        });
    }

    /** {@code fields} and links, which Ironic's sanitize keeps whatever fields were asked for. */
    static List<String> withLinks(List<String> fields) {
        List<String> shown = new ArrayList<>(fields);
        if (!shown.contains("links")) {
            shown.add("links");
        }
        return shown;
    }

    private static UUID uuid(String name, String value) {
        UUID uuid = NodeReader.parseUuid(value);
        if (uuid == null) {
            throw ApiError.badRequest("Expected a UUID for " + name + " but received " + value + ".");
        }
        return uuid;
    }
}
