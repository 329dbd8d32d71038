package io.ironflow.api.nodes;

import io.ironflow.api.errors.ApiError;
import io.ironflow.events.NodeSnapshot;
import io.smallrye.mutiny.Uni;
import io.vertx.core.json.JsonObject;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/** Reads nodes straight from the conductor's node table, as Ironic's API reads its database. */
@ApplicationScoped
public class NodeReader {

    private static final String COLUMNS = "uuid, name, driver, driver_info, properties, extra, instance_info, "
            + "instance_uuid, resource_class, owner, lessee, description, automated_clean, conductor_group, "
            + "provision_state, target_provision_state, power_state, target_power_state, maintenance, "
            + "maintenance_reason, retired, retired_reason, last_error, reservation, conductor, clean_step, revision, "
            + "created_at, updated_at, provision_updated_at";

    private final Pool client;

    NodeReader(Pool client) {
        this.client = client;
    }

    /** The node with this uuid or name, or null. */
    public Uni<NodeSnapshot> find(String ident) {
        UUID uuid = parseUuid(ident);
        String sql = "SELECT " + COLUMNS + " FROM nodes WHERE " + (uuid != null ? "uuid = $1" : "name = $1");
        return client.preparedQuery(sql).execute(Tuple.of(uuid != null ? uuid : ident))
                .map(rows -> rows.iterator().hasNext() ? toSnapshot(rows.iterator().next()) : null);
    }

    /** The node with this uuid or name; an unknown one fails with Ironic's 404. Every /v1/nodes/{ident} path uses it. */
    public Uni<NodeSnapshot> require(String ident) {
        return find(ident).map(node -> {
            if (node == null) {
                throw ApiError.notFound("Node " + ident + " could not be found.");
            }
            return node;
        });
    }

    /** Up to {@code limit} nodes after {@code marker} (a uuid), in uuid order. */
    public Uni<List<NodeSnapshot>> list(int limit, UUID marker) {
        String sql = "SELECT " + COLUMNS + " FROM nodes"
                + (marker != null ? " WHERE uuid > $2" : "") + " ORDER BY uuid LIMIT $1";
        Tuple args = marker != null ? Tuple.of(limit, marker) : Tuple.of(limit);
        return client.preparedQuery(sql).execute(args).map(rows -> {
            List<NodeSnapshot> nodes = new ArrayList<>();
            rows.forEach(row -> nodes.add(toSnapshot(row)));
            return nodes;
        });
    }

    static UUID parseUuid(String value) {
        try {
            UUID uuid = UUID.fromString(value);
            return uuid.toString().equalsIgnoreCase(value) ? uuid : null;
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    private static NodeSnapshot toSnapshot(Row row) {
        return NodeSnapshot.newBuilder()
                .setUuid(row.getUUID("uuid").toString())
                .setRevision(row.getLong("revision"))
                .setName(row.getString("name"))
                .setDriver(row.getString("driver"))
                .setDriverInfo(json(row, "driver_info"))
                .setProperties(json(row, "properties"))
                .setExtra(json(row, "extra"))
                .setInstanceInfo(json(row, "instance_info"))
                .setInstanceUuid(row.getUUID("instance_uuid") == null ? null : row.getUUID("instance_uuid").toString())
                .setResourceClass(row.getString("resource_class"))
                .setOwner(row.getString("owner"))
                .setLessee(row.getString("lessee"))
                .setDescription(row.getString("description"))
                .setAutomatedClean(row.getBoolean("automated_clean"))
                .setConductorGroup(row.getString("conductor_group"))
                .setProvisionState(row.getString("provision_state"))
                .setTargetProvisionState(row.getString("target_provision_state"))
                .setPowerState(row.getString("power_state"))
                .setTargetPowerState(row.getString("target_power_state"))
                .setMaintenance(row.getBoolean("maintenance"))
                .setMaintenanceReason(row.getString("maintenance_reason"))
                .setRetired(row.getBoolean("retired"))
                .setRetiredReason(row.getString("retired_reason"))
                .setLastError(row.getString("last_error"))
                .setReservation(row.getString("reservation"))
                .setConductor(row.getString("conductor"))
                .setCleanStep(row.getValue("clean_step") == null ? null : json(row, "clean_step"))
                .setCreatedAt(instant(row, "created_at"))
                .setUpdatedAt(instant(row, "updated_at"))
                .setProvisionUpdatedAt(instant(row, "provision_updated_at"))
                .build();
    }

    private static String json(Row row, String column) {
        Object value = row.getValue(column);
        return value instanceof JsonObject object ? object.encode() : "{}";
    }

    private static java.time.Instant instant(Row row, String column) {
        OffsetDateTime value = row.getOffsetDateTime(column);
        return value == null ? null : value.toInstant();
    }
}
