package io.ironflow.conductor.persistence;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * A node's row written by a statement of the caller's own, as {@link NodeEntity} holds it: every column the entity
 * maps but its key, so that nothing a change made is left out ({@code NodeRowTest} holds the list to the entity's
 * fields). An intent writes its node this way inside the statement of its answer, instead of letting Hibernate
 * flush it at commit: one round trip and one dirty check fewer per intent. The caller detaches the entity first,
 * so that Hibernate does not write it a second time.
 * <p>
 * The JSON columns hold JSON values only (maps, lists, strings, numbers, booleans, null: see
 * {@link JsonMapSnapshot}); they are sent as text and cast, the text's parameter type being what the client
 * encodes a string as.
 */
public final class NodeRow {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** A column, whether it holds JSON, and how its value is read from the entity. */
    record Column(String name, boolean json, Function<NodeEntity, Object> value) {
    }

    static final List<Column> COLUMNS = List.of(
            plain("name", n -> n.name),
            plain("driver", n -> n.driver),
            json("driver_info", n -> n.driverInfo),
            json("properties", n -> n.properties),
            json("extra", n -> n.extra),
            json("instance_info", n -> n.instanceInfo),
            json("driver_internal_info", n -> n.driverInternalInfo),
            plain("instance_uuid", n -> n.instanceUuid),
            plain("resource_class", n -> n.resourceClass),
            plain("owner", n -> n.owner),
            plain("lessee", n -> n.lessee),
            plain("description", n -> n.description),
            plain("automated_clean", n -> n.automatedClean),
            plain("conductor_group", n -> n.conductorGroup),
            plain("provision_state", n -> n.provisionState),
            plain("target_provision_state", n -> n.targetProvisionState),
            plain("power_state", n -> n.powerState),
            plain("target_power_state", n -> n.targetPowerState),
            plain("maintenance", n -> n.maintenance),
            plain("maintenance_reason", n -> n.maintenanceReason),
            plain("retired", n -> n.retired),
            plain("retired_reason", n -> n.retiredReason),
            plain("last_error", n -> n.lastError),
            plain("reservation", n -> n.reservation),
            plain("conductor", n -> n.conductor),
            json("clean_step", n -> n.cleanStep),
            plain("revision", n -> n.revision),
            plain("created_at", n -> n.createdAt),
            plain("updated_at", n -> n.updatedAt),
            plain("provision_updated_at", n -> n.provisionUpdatedAt),
            plain("traits", n -> n.traits),
            json("network_data", n -> n.networkData),
            plain("boot_mode", n -> n.bootMode),
            plain("secure_boot", n -> n.secureBoot),
            plain("shard", n -> n.shard),
            json("ports", n -> n.ports),
            json("portgroups", n -> n.portgroups));

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

    private static String json(Object value) {
        try {
            return JSON.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a JSON column of the node holds a value that is not JSON", e);
        }
    }

    private static Column plain(String name, Function<NodeEntity, Object> value) {
        return new Column(name, false, value);
    }

    private static Column json(String name, Function<NodeEntity, Map<String, Object>> value) {
        return new Column(name, true, value::apply);
    }
}
