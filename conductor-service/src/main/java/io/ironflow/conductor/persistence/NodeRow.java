package io.ironflow.conductor.persistence;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.vertx.mutiny.sqlclient.Row;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.BiConsumer;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * A node's row written by a statement of the caller's own, as {@link NodeEntity} holds it: every column the entity
 * maps but its key, so that nothing a change made is left out ({@code NodeRowTest} holds the list to the entity's
 * fields). An intent writes its node this way inside the statement of its answer, instead of letting Hibernate
 * flush it at commit: one round trip and one dirty check fewer per intent. The caller detaches the entity first,
 * so that Hibernate does not write it a second time. The commands that change nothing but their node's row are
 * read this way too ({@link #read}), by the plain client, with no session at all ({@link PipelinedTransactions}).
 * <p>
 * The JSON columns hold JSON values only (maps, lists, strings, numbers, booleans, null: see
 * {@link JsonMapSnapshot}); they are sent as text and cast, the text's parameter type being what the client
 * encodes a string as.
 */
public final class NodeRow {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final TypeReference<Map<String, Object>> JSON_MAP = new TypeReference<>() {
    };

    /** How a column's value travels: as the entity's type, or (JSON) as text, cast by the statement. */
    enum Kind { TEXT, UUID, BOOLEAN, INTEGER, LONG, INSTANT, TEXT_ARRAY, JSON }

    /** A column, how its value travels, and how it is read from and set on the entity. */
    record Column(String name, Kind kind, Function<NodeEntity, Object> value, BiConsumer<NodeEntity, Object> setter) {

        boolean json() {
            return kind == Kind.JSON;
        }
    }

    static final List<Column> COLUMNS = List.of(
            column("name", Kind.TEXT, n -> n.name, (n, v) -> n.name = (String) v),
            column("driver", Kind.TEXT, n -> n.driver, (n, v) -> n.driver = (String) v),
            json("driver_info", n -> n.driverInfo, (n, v) -> n.driverInfo = v),
            json("properties", n -> n.properties, (n, v) -> n.properties = v),
            json("extra", n -> n.extra, (n, v) -> n.extra = v),
            json("instance_info", n -> n.instanceInfo, (n, v) -> n.instanceInfo = v),
            json("driver_internal_info", n -> n.driverInternalInfo, (n, v) -> n.driverInternalInfo = v),
            column("instance_uuid", Kind.UUID, n -> n.instanceUuid, (n, v) -> n.instanceUuid = (UUID) v),
            column("resource_class", Kind.TEXT, n -> n.resourceClass, (n, v) -> n.resourceClass = (String) v),
            column("owner", Kind.TEXT, n -> n.owner, (n, v) -> n.owner = (String) v),
            column("lessee", Kind.TEXT, n -> n.lessee, (n, v) -> n.lessee = (String) v),
            column("description", Kind.TEXT, n -> n.description, (n, v) -> n.description = (String) v),
            column("automated_clean", Kind.BOOLEAN, n -> n.automatedClean, (n, v) -> n.automatedClean = (Boolean) v),
            column("conductor_group", Kind.TEXT, n -> n.conductorGroup, (n, v) -> n.conductorGroup = (String) v),
            column("provision_state", Kind.TEXT, n -> n.provisionState, (n, v) -> n.provisionState = (String) v),
            column("target_provision_state", Kind.TEXT, n -> n.targetProvisionState,
                    (n, v) -> n.targetProvisionState = (String) v),
            column("power_state", Kind.TEXT, n -> n.powerState, (n, v) -> n.powerState = (String) v),
            column("target_power_state", Kind.TEXT, n -> n.targetPowerState, (n, v) -> n.targetPowerState = (String) v),
            column("maintenance", Kind.BOOLEAN, n -> n.maintenance, (n, v) -> n.maintenance = (Boolean) v),
            column("maintenance_reason", Kind.TEXT, n -> n.maintenanceReason, (n, v) -> n.maintenanceReason = (String) v),
            column("fault", Kind.TEXT, n -> n.fault, (n, v) -> n.fault = (String) v),
            column("retired", Kind.BOOLEAN, n -> n.retired, (n, v) -> n.retired = (Boolean) v),
            column("retired_reason", Kind.TEXT, n -> n.retiredReason, (n, v) -> n.retiredReason = (String) v),
            column("last_error", Kind.TEXT, n -> n.lastError, (n, v) -> n.lastError = (String) v),
            column("reservation", Kind.TEXT, n -> n.reservation, (n, v) -> n.reservation = (String) v),
            column("conductor", Kind.TEXT, n -> n.conductor, (n, v) -> n.conductor = (String) v),
            json("clean_step", n -> n.cleanStep, (n, v) -> n.cleanStep = v),
            column("revision", Kind.LONG, n -> n.revision, (n, v) -> n.revision = (Long) v),
            column("created_at", Kind.INSTANT, n -> n.createdAt, (n, v) -> n.createdAt = (Instant) v),
            column("updated_at", Kind.INSTANT, n -> n.updatedAt, (n, v) -> n.updatedAt = (Instant) v),
            column("provision_updated_at", Kind.INSTANT, n -> n.provisionUpdatedAt,
                    (n, v) -> n.provisionUpdatedAt = (Instant) v),
            column("traits", Kind.TEXT_ARRAY, n -> n.traits, (n, v) -> n.traits = (String[]) v),
            json("network_data", n -> n.networkData, (n, v) -> n.networkData = v),
            column("boot_mode", Kind.TEXT, n -> n.bootMode, (n, v) -> n.bootMode = (String) v),
            column("secure_boot", Kind.BOOLEAN, n -> n.secureBoot, (n, v) -> n.secureBoot = (Boolean) v),
            column("shard", Kind.TEXT, n -> n.shard, (n, v) -> n.shard = (String) v),
            json("ports", n -> n.ports, (n, v) -> n.ports = v),
            json("portgroups", n -> n.portgroups, (n, v) -> n.portgroups = v),
            column("snapshot_bytes", Kind.INTEGER, n -> n.snapshotBytes, (n, v) -> n.snapshotBytes = (Integer) v));

    /**
     * The select list {@link #read} takes: the key, then every column of {@link #COLUMNS} in order, the JSON ones as
     * text (parsed as Hibernate parses them, by Jackson, rather than into the client's own JSON types).
     */
    public static final String SELECT_LIST = "uuid, " + COLUMNS.stream()
            .map(c -> c.json() ? "CAST(" + c.name() + " AS text) AS " + c.name() : c.name())
            .collect(Collectors.joining(", "));

    private NodeRow() {
    }

    /**
     * {@code name AS (UPDATE nodes SET ... WHERE uuid = ...)}, a data-modifying common table expression whose
     * parameters are numbered from {@code first}, in the order {@link #parameters} gives them.
     */
    public static String updateCte(String name, int first) {
        StringBuilder sql = new StringBuilder(name).append(" AS (UPDATE nodes SET ");
        int p = first;
        for (Column column : COLUMNS) {
            sql.append(p == first ? "" : ", ").append(column.name()).append(" = ")
                    .append(column.json() ? "CAST(CAST(?" + p + " AS text) AS jsonb)" : "?" + p);
            p++;
        }
        return sql.append(" WHERE uuid = ?").append(p).append(')').toString();
    }

    /**
     * {@code name AS (INSERT INTO nodes (...) VALUES (...))}, a new node's row as a data-modifying common table
     * expression, with the parameters of {@link #updateCte} (numbered from {@code first}, in the order
     * {@link #parameters} gives them: the columns, then the key).
     */
    public static String insertCte(String name, int first) {
        StringBuilder columns = new StringBuilder();
        StringBuilder values = new StringBuilder();
        int p = first;
        for (Column column : COLUMNS) {
            columns.append(column.name()).append(", ");
            values.append(column.json() ? "CAST(CAST(?" + p + " AS text) AS jsonb)" : "?" + p).append(", ");
            p++;
        }
        return name + " AS (INSERT INTO nodes (" + columns + "uuid) VALUES (" + values + "?" + p + "))";
    }

    /** The values of {@link #updateCte}'s parameters for {@code node}: its columns, then its key. */
    public static List<Object> parameters(NodeEntity node) {
        List<Object> values = new ArrayList<>(COLUMNS.size() + 1);
        for (Column column : COLUMNS) {
            Object value = column.value().apply(node);
            values.add(column.json() && value != null ? json(value) : value);
        }
        values.add(node.uuid);
        return values;
    }

    /**
     * The node of a row selected with {@link #SELECT_LIST}, as Hibernate would load it, but not managed by any
     * session: whoever changes it writes it with {@link #updateCte}.
     */
    public static NodeEntity read(Row row) {
        NodeEntity node = new NodeEntity();
        node.uuid = row.getUUID(0);
        for (int i = 0; i < COLUMNS.size(); i++) {
            Column column = COLUMNS.get(i);
            column.setter().accept(node, value(row, i + 1, column.kind()));
        }
        return node;
    }

    private static Object value(Row row, int index, Kind kind) {
        return switch (kind) {
            case TEXT -> row.getString(index);
            case UUID -> row.getUUID(index);
            case BOOLEAN -> row.getBoolean(index);
            case INTEGER -> row.getInteger(index);
            case LONG -> row.getLong(index);
            case INSTANT -> {
                OffsetDateTime time = row.getOffsetDateTime(index);
                yield time == null ? null : time.toInstant();
            }
            case TEXT_ARRAY -> row.getArrayOfStrings(index);
            case JSON -> {
                String text = row.getString(index);
                try {
                    yield text == null ? null : JSON.readValue(text, JSON_MAP);
                } catch (JsonProcessingException e) {
                    throw new IllegalStateException("a JSON column of the node does not hold a JSON object", e);
                }
            }
        };
    }

    private static String json(Object value) {
        try {
            return JSON.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a JSON column of the node holds a value that is not JSON", e);
        }
    }

    private static Column column(String name, Kind kind, Function<NodeEntity, Object> value,
            BiConsumer<NodeEntity, Object> setter) {
        return new Column(name, kind, value, setter);
    }

    private static Column json(String name, Function<NodeEntity, Map<String, Object>> value,
            BiConsumer<NodeEntity, Map<String, Object>> setter) {
        @SuppressWarnings("unchecked")
        BiConsumer<NodeEntity, Object> set = (node, map) -> setter.accept(node, (Map<String, Object>) map);
        return new Column(name, Kind.JSON, value::apply, set);
    }
}
