package io.ironflow.api.nodes;

import io.ironflow.api.auth.Access;
import io.ironflow.api.errors.ApiError;
import io.ironflow.events.NodeSnapshot;
import io.ironflow.policy.NodeOwnership;
import io.ironflow.policy.Policy;
import io.ironflow.policy.Principal;
import io.smallrye.mutiny.Uni;
import io.ironflow.api.ListMarker;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;

/**
 * Reads nodes straight from the conductor's node table, as Ironic's API reads its database, and only those the
 * caller may see: a node it may not get is 404, and a list holds only its project's nodes unless it may list all.
 */
@ApplicationScoped
public class NodeReader {

    // Dictionaries come as JSON text: they go on as text, so decoding them into objects here would be waste.
    private static final String COLUMNS = "uuid, name, driver, driver_info::text AS driver_info, "
            + "properties::text AS properties, extra::text AS extra, instance_info::text AS instance_info, "
            + "instance_uuid, resource_class, owner, lessee, description, automated_clean, conductor_group, "
            + "provision_state, target_provision_state, power_state, target_power_state, maintenance, "
            + "maintenance_reason, fault, retired, retired_reason, last_error, reservation, conductor, "
            + "clean_step::text AS clean_step, revision, created_at, updated_at, provision_updated_at, traits, "
            + "network_data::text AS network_data, boot_mode, secure_boot, shard";
    /** What the policy looks at, and the uuid a write is keyed by. */
    private static final String OWNERSHIP_COLUMNS = "uuid, owner, lessee";
    private static final String STATES_COLUMNS = OWNERSHIP_COLUMNS + ", last_error, power_state, provision_state,"
            + " provision_updated_at, target_power_state, target_provision_state";

    private final Pool client;
    private final Access access;

    NodeReader(Pool client, Access access) {
        this.client = client;
        this.access = access;
    }

    /** The node with this uuid or name, or null. */
    public Uni<NodeSnapshot> find(String ident) {
        return select(COLUMNS, ident).map(row -> row == null ? null : toSnapshot(row));
    }

    /**
     * The node with this uuid or name, if the caller may see it; an unknown or hidden one fails with Ironic's 404.
     * Every /v1/nodes/{ident} path uses it.
     */
    public Uni<NodeSnapshot> require(String ident) {
        return require(ident, Policy.NODE_GET);
    }

    /** As {@link #require(String)}, and the caller must pass {@code rule} on the node (403 otherwise). */
    public Uni<NodeSnapshot> require(String ident, String rule) {
        return require(ident, access.caller(), Set.of(rule));
    }

    /** The node, if {@code who} passes {@code rules} on it: 404 when it may not see it, else 403. */
    public Uni<NodeSnapshot> require(String ident, Principal who, Set<String> rules) {
        return requireRow(COLUMNS, ident, who, rules).map(NodeReader::toSnapshot);
    }

    /**
     * As {@link #require(String, Principal, Set)}, but only the node's uuid: a write, or a look at the node's ports,
     * needs no more, so only the three columns the policy and the answer need are read (a node's whole row, its
     * dictionaries cast to text, is most of the read's cost).
     */
    public Uni<UUID> requireUuid(String ident, Principal who, Set<String> rules) {
        return requireRow(OWNERSHIP_COLUMNS, ident, who, rules).map(row -> row.getUUID("uuid"));
    }

    /**
     * The uuid of the node a new port or portgroup names in its body, as Ironic's port.py and portgroup.py decide:
     * a node {@code who} may not see, or that does not exist, is judged as a node nobody owns ({@code rule} refused:
     * 403), then answered NodeNotFound with 400; a node it sees is judged on its owner and lessee (403).
     */
    public Uni<UUID> requireParentUuid(String ident, Principal who, String rule) {
        return requireUuid(ident, who, Set.of(rule)).onFailure(ApiError.class).transform(e -> ((ApiError) e).status() != 404 ? e
                : access.allows(who, rule, null) ? ApiError.badRequest("Node " + ident + " could not be found.")
                : Access.forbidden(Set.of(rule)));
    }

    /** As {@link #requireUuid(String, Principal, Set)} with one rule for the current caller. */
    public Uni<UUID> requireUuid(String ident, String rule) {
        return requireUuid(ident, access.caller(), Set.of(rule));
    }

    /** The node's states ({@code GET /v1/nodes/{ident}/states}), if the caller passes {@code rule} on it. */
    public Uni<NodeStates> requireStates(String ident, String rule) {
        return requireRow(STATES_COLUMNS, ident, access.caller(), Set.of(rule)).map(row -> new NodeStates(
                row.getString("last_error"), row.getString("power_state"), row.getString("provision_state"),
                instant(row, "provision_updated_at"), row.getString("target_power_state"),
                row.getString("target_provision_state")));
    }

    /** What {@code GET /v1/nodes/{ident}/states} shows of a node. */
    public record NodeStates(String lastError, String powerState, String provisionState,
            Instant provisionUpdatedAt, String targetPowerState, String targetProvisionState) {
    }

    /** {@code columns} (owner and lessee among them) of the node, if {@code who} passes {@code rules} on it. */
    private Uni<Row> requireRow(String columns, String ident, Principal who, Set<String> rules) {
        return select(columns, ident).map(row -> {
            if (row == null) {
                throw ApiError.notFound("Node " + ident + " could not be found.");
            }
            access.require(who, rules, new NodeOwnership(row.getString("owner"), row.getString("lessee")), ident);
            return row;
        });
    }

    /** {@code columns} of the node with this uuid or name, or null. */
    private Uni<Row> select(String columns, String ident) {
        UUID uuid = parseUuid(ident);
        String sql = "SELECT " + columns + " FROM nodes WHERE " + (uuid != null ? "uuid = $1" : "name = $1");
        return client.preparedQuery(sql).execute(Tuple.of(uuid != null ? uuid : ident))
                .map(rows -> rows.iterator().hasNext() ? rows.iterator().next() : null);
    }

    /**
     * One page of {@code GET /v1/nodes}: the filtered nodes after the marker in the query's order. The marker's
     * own sort value is looked up in the same statement, and {@code id} breaks ties, so the page is a keyset
     * range scan whatever the sort key.
     */
    public Uni<List<NodeSnapshot>> list(NodeListQuery query) {
        List<Object> values = new ArrayList<>(query.values());
        List<String> conditions = new ArrayList<>(query.conditions());
        listedProject("baremetal:node:list", "baremetal:node:list_all").ifPresent(project -> {
            values.add(project);
            conditions.add("(owner = $" + values.size() + " OR lessee = $" + values.size() + ")");
        });
        String sort = query.sortExpression();
        if (query.marker() != null) {
            values.add(query.marker());
            conditions.add("(" + sort + ", id) " + (query.descending() ? "<" : ">") + " (SELECT " + sort
                    + ", id FROM nodes WHERE uuid = $" + values.size() + ")");
        }
        values.add(query.limit());
        String direction = query.descending() ? " DESC" : "";
        String sql = "SELECT " + COLUMNS + " FROM nodes"
                + (conditions.isEmpty() ? "" : " WHERE " + String.join(" AND ", conditions))
                + " ORDER BY " + sort + direction + ", id" + direction + " LIMIT $" + values.size();
        return client.preparedQuery(sql).execute(Tuple.from(values)).map(rows -> {
            List<NodeSnapshot> nodes = new ArrayList<>();
            rows.forEach(row -> nodes.add(toSnapshot(row)));
            return nodes;
        }).flatMap(page -> ListMarker.found(client, page, query.marker(), "nodes", "uuid", "Node " + query.marker() + " could not be found."));
    }

    /**
     * Whose nodes (or nodes' ports) the caller may list: empty when {@code listAllRule} lets it list all; else its
     * project, whose owned or leased nodes it sees ("" matches none: a system token without list_all); 403 when
     * {@code listRule} refuses it altogether.
     */
    public java.util.Optional<String> listedProject(String listRule, String listAllRule) {
        Principal who = access.caller();
        if (access.allows(who, listAllRule, null)) {
            return java.util.Optional.empty();
        }
        access.require(who, listRule);
        return java.util.Optional.of(who.project() == null ? "" : who.project());
    }

    public static UUID parseUuid(String value) {
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
                .setFault(row.getString("fault"))
                .setRetired(row.getBoolean("retired"))
                .setRetiredReason(row.getString("retired_reason"))
                .setLastError(row.getString("last_error"))
                .setReservation(row.getString("reservation"))
                .setConductor(row.getString("conductor"))
                .setCleanStep(row.getValue("clean_step") == null ? null : json(row, "clean_step"))
                .setCreatedAt(instant(row, "created_at"))
                .setUpdatedAt(instant(row, "updated_at"))
                .setProvisionUpdatedAt(instant(row, "provision_updated_at"))
                .setTraits(List.of(row.getArrayOfStrings("traits")))
                .setNetworkData(json(row, "network_data"))
                .setBootMode(row.getString("boot_mode"))
                .setSecureBoot(row.getBoolean("secure_boot"))
                .setShard(row.getString("shard"))
                .build();
    }

    private static String json(Row row, String column) {
        String value = row.getString(column);
        return value != null ? value : "{}";
    }

    private static Instant instant(Row row, String column) {
        OffsetDateTime value = row.getOffsetDateTime(column);
        return value == null ? null : value.toInstant();
    }
}
