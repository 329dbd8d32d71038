package io.ironflow.api.ports;

import io.ironflow.events.PortSnapshot;
import io.smallrye.mutiny.Uni;
import io.ironflow.api.ListMarker;
import io.ironflow.api.QuerySort;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/** Reads ports from the conductor's ports table, as Ironic's API reads its database. */
@ApplicationScoped
public class PortReader {

    /** A port and the uuid of its node. */
    public record StoredPort(PortSnapshot port, String nodeUuid) {
    }

    private static final String COLUMNS = "uuid, address, node_uuid, pxe_enabled, physical_network, "
            + "local_link_connection::text AS llc, extra::text AS extra, internal_info::text AS internal_info, "
            + "created_at, updated_at, portgroup_uuid";

    private final Pool client;

    PortReader(Pool client) {
        this.client = client;
    }

    public Uni<StoredPort> find(UUID uuid) {
        return client.preparedQuery("SELECT " + COLUMNS + " FROM ports WHERE uuid = $1").execute(Tuple.of(uuid))
                .map(rows -> rows.iterator().hasNext() ? of(rows.iterator().next()) : null);
    }

    /** The ports of one node, oldest first. */
    public Uni<List<StoredPort>> ofNode(UUID node) {
        return client.preparedQuery("SELECT " + COLUMNS + " FROM ports WHERE node_uuid = $1 ORDER BY id")
                .execute(Tuple.of(node)).map(PortReader::all);
    }

    /** One page: the conditions' ports after the marker, in the sort's order ({@code id} breaking ties). */
    Uni<List<StoredPort>> list(List<String> conditions, List<Object> values, UUID marker, QuerySort sort, int limit) {
        List<Object> parameters = new ArrayList<>(values);
        List<String> where = new ArrayList<>(conditions);
        if (marker != null) {
            parameters.add(marker);
            where.add(sort.after("ports", parameters.size()));
        }
        parameters.add(limit);
        String sql = "SELECT " + COLUMNS + " FROM ports" + (where.isEmpty() ? "" : " WHERE " + String.join(" AND ", where))
                + " ORDER BY " + sort.orderBy() + " LIMIT $" + parameters.size();
        return client.preparedQuery(sql).execute(Tuple.from(parameters)).map(PortReader::all)
                .flatMap(page -> ListMarker.found(client, page, marker, "ports", "uuid", "Port " + marker + " could not be found."));
    }

    private static List<StoredPort> all(io.vertx.mutiny.sqlclient.RowSet<Row> rows) {
        List<StoredPort> ports = new ArrayList<>();
        rows.forEach(row -> ports.add(of(row)));
        return ports;
    }

    private static StoredPort of(Row row) {
        PortSnapshot port = PortSnapshot.newBuilder()
                .setUuid(row.getUUID("uuid").toString())
                .setAddress(row.getString("address"))
                .setPxeEnabled(row.getBoolean("pxe_enabled"))
                .setPhysicalNetwork(row.getString("physical_network"))
                .setLocalLinkConnection(row.getString("llc"))
                .setExtra(row.getString("extra"))
                .setInternalInfo(row.getString("internal_info"))
                .setCreatedAt(row.getOffsetDateTime("created_at").toInstant())
                .setUpdatedAt(row.getOffsetDateTime("updated_at") == null ? null : row.getOffsetDateTime("updated_at").toInstant())
                .setPortgroupUuid(row.getUUID("portgroup_uuid") == null ? null : row.getUUID("portgroup_uuid").toString())
                .build();
        return new StoredPort(port, row.getUUID("node_uuid").toString());
    }
}
