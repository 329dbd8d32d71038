package io.ironflow.api.portgroups;

import io.ironflow.api.nodes.NodeReader;
import io.ironflow.events.PortgroupSnapshot;
import io.smallrye.mutiny.Uni;
import io.ironflow.api.ListMarker;
import io.ironflow.api.QuerySort;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/** Reads portgroups from the conductor's portgroups table (V27), as Ironic's API reads its database. */
@ApplicationScoped
public class PortgroupReader {

    /** A portgroup and the uuid of its node. */
    public record StoredPortgroup(PortgroupSnapshot portgroup, String nodeUuid) {
    }

    private static final String COLUMNS = "uuid, name, address, node_uuid, mode, standalone_ports_supported, "
            + "properties::text AS properties, extra::text AS extra, internal_info::text AS internal_info, created_at, updated_at";

    private final Pool client;

    PortgroupReader(Pool client) {
        this.client = client;
    }

    /** By uuid or name, as Ironic's uuid_or_name; null when there is none. */
    public Uni<StoredPortgroup> find(String ident) {
        UUID uuid = NodeReader.parseUuid(ident);
        String sql = "SELECT " + COLUMNS + " FROM portgroups WHERE " + (uuid != null ? "uuid = $1" : "name = $1");
        return client.preparedQuery(sql).execute(Tuple.of(uuid != null ? uuid : ident))
                .map(rows -> rows.iterator().hasNext() ? of(rows.iterator().next()) : null);
    }

    /** The portgroups of one node, oldest first. */
    public Uni<List<StoredPortgroup>> ofNode(UUID node) {
        return client.preparedQuery("SELECT " + COLUMNS + " FROM portgroups WHERE node_uuid = $1 ORDER BY id")
                .execute(Tuple.of(node)).map(PortgroupReader::all);
    }

    /** One page: the conditions' portgroups after the marker, in the sort's order ({@code id} breaking ties). */
    Uni<List<StoredPortgroup>> list(List<String> conditions, List<Object> values, UUID marker, QuerySort sort, int limit) {
        List<Object> parameters = new ArrayList<>(values);
        List<String> where = new ArrayList<>(conditions);
        if (marker != null) {
            parameters.add(marker);
            where.add(sort.after("portgroups", parameters.size()));
        }
        parameters.add(limit);
        String sql = "SELECT " + COLUMNS + " FROM portgroups" + (where.isEmpty() ? "" : " WHERE " + String.join(" AND ", where))
                + " ORDER BY " + sort.orderBy() + " LIMIT $" + parameters.size();
        return client.preparedQuery(sql).execute(Tuple.from(parameters)).map(PortgroupReader::all)
                .flatMap(page -> ListMarker.found(client, page, marker, "portgroups", "uuid", "Portgroup " + marker + " could not be found."));
    }

    private static List<StoredPortgroup> all(RowSet<Row> rows) {
        List<StoredPortgroup> portgroups = new ArrayList<>();
        rows.forEach(row -> portgroups.add(of(row)));
        return portgroups;
    }

    private static StoredPortgroup of(Row row) {
        PortgroupSnapshot portgroup = PortgroupSnapshot.newBuilder()
                .setUuid(row.getUUID("uuid").toString())
                .setName(row.getString("name"))
                .setAddress(row.getString("address"))
                .setMode(row.getString("mode"))
                .setStandalonePortsSupported(row.getBoolean("standalone_ports_supported"))
                .setProperties(row.getString("properties"))
                .setExtra(row.getString("extra"))
                .setInternalInfo(row.getString("internal_info"))
                .setCreatedAt(row.getOffsetDateTime("created_at").toInstant())
                .setUpdatedAt(row.getOffsetDateTime("updated_at") == null ? null : row.getOffsetDateTime("updated_at").toInstant())
                .build();
        return new StoredPortgroup(portgroup, row.getUUID("node_uuid").toString());
    }
}
