package io.ironflow.conductor.intents;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ironflow.conductor.domain.NodeNames;
import io.ironflow.conductor.domain.Port;
import io.ironflow.conductor.domain.ProvisionState;
import io.ironflow.conductor.domain.Rejection;
import io.ironflow.conductor.messaging.NodeSnapshots;
import io.ironflow.conductor.persistence.NodeEntity;
import io.ironflow.events.AttachVif;
import io.ironflow.events.CreatePort;
import io.ironflow.events.DeletePort;
import io.ironflow.events.DetachVif;
import io.ironflow.events.UpdatePort;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.hibernate.reactive.common.AffectedEntities;

/**
 * What the port and VIF commands do, inside the intent's transaction, on a node the caller holds (locked and
 * reserved): the checks first (a refusal changes nothing), then the ports table and the node's copy of its ports
 * ({@code nodes.ports}, which its snapshot carries) together. Ports are keyed by their node, so a node's port
 * changes are ordered with its other intents; a MAC address is unique among all nodes' ports.
 */
final class PortCommands {

    private static final ObjectMapper JSON = new ObjectMapper();
    // JSON goes in as text and is cast in SQL: a string bound where PostgreSQL expects jsonb is stored as a JSON
    // string, not parsed as an object.
    /** The port statements touch no entity: Hibernate need not flush the node before them. */
    private static final AffectedEntities NONE = new AffectedEntities();

    private PortCommands() {
    }

    static Uni<Void> create(NodeEntity node, CreatePort command) {
        String uuid = NodeNames.requireUuid(command.getPortUuid()).toString();
        String address = Port.requireMac(command.getAddress());
        Port.requireChangeable(node.uuid.toString(), ProvisionState.fromWire(node.provisionState), node.maintenance, "add");
        Map<String, Object> llc = NodeSnapshots.dict("local_link_connection", command.getLocalLinkConnection());
        Map<String, Object> extra = NodeSnapshots.dict("extra", command.getExtra());
        boolean pxe = command.getPxeEnabled() == null || command.getPxeEnabled();
        String portgroup = PortgroupCommands.requireMember(node, uuid, command.getPortgroupUuid(), pxe, extra);
        return count("SELECT count(*) FROM ports WHERE uuid = ?1", UUID.fromString(uuid)).flatMap(n -> {
            if (n > 0) {
                throw Rejection.conflict("A port with UUID " + uuid + " already exists.");
            }
            return requireFreeAddress(address, uuid);
        }).flatMap(x -> {
            Instant now = now();
            Map<String, Object> port = new LinkedHashMap<>();
            port.put("uuid", uuid);
            port.put("address", address);
            port.put("node_uuid", node.uuid.toString());
            port.put("pxe_enabled", pxe);
            port.put("physical_network", command.getPhysicalNetwork());
            port.put("local_link_connection", llc);
            port.put("extra", extra);
            port.put("internal_info", new LinkedHashMap<>());
            port.put("portgroup_uuid", portgroup);
            port.put("created_at", now.toString());
            port.put("updated_at", null);
            put(node, port);
            return execute("INSERT INTO ports (uuid, address, node_uuid, pxe_enabled, physical_network,"
                    + " local_link_connection, extra, internal_info, created_at, portgroup_uuid) VALUES (?1, ?2, ?3, ?4, ?5,"
                    + " cast(cast(?6 as text) as jsonb), cast(cast(?7 as text) as jsonb), '{}', ?8, cast(cast(?9 as text) as uuid))",
                    UUID.fromString(uuid), address, node.uuid, pxe, command.getPhysicalNetwork(), json(llc), json(extra),
                    now.atOffset(ZoneOffset.UTC), portgroup);
        });
    }

    static Uni<Void> update(NodeEntity node, UpdatePort command) {
        Map<String, Object> port = require(node, command.getPortUuid());
        Map<String, Object> after = Port.patch(port, command.getPatch());
        PortgroupCommands.requireMember(node, (String) port.get("uuid"), (String) after.get("portgroup_uuid"),
                !Boolean.FALSE.equals(after.get("pxe_enabled")), dict(after.get("extra")));
        boolean readdressed = !after.get("address").equals(port.get("address"));
        if (readdressed) {
            Port.requireChangeable(node.uuid.toString(), ProvisionState.fromWire(node.provisionState), node.maintenance,
                    "change the address of");
        }
        Uni<Void> free = readdressed ? requireFreeAddress((String) after.get("address"), (String) port.get("uuid"))
                : Uni.createFrom().voidItem();
        return free.flatMap(x -> write(node, after));
    }

    static Uni<Void> delete(NodeEntity node, DeletePort command) {
        Map<String, Object> port = require(node, command.getPortUuid());
        Port.requireChangeable(node.uuid.toString(), ProvisionState.fromWire(node.provisionState), node.maintenance, "remove");
        node.ports = new HashMap<>(node.ports);
        node.ports.remove(port.get("uuid"));
        return execute("DELETE FROM ports WHERE uuid = ?1", UUID.fromString((String) port.get("uuid")));
    }

    /** Ironic's VIFPortIDMixin.vif_attach: the first free port, pxe-enabled ones first, oldest first. */
    static Uni<Void> attachVif(NodeEntity node, AttachVif command) {
        String vif = requireVif(command.getVifId());
        Optional<Map<String, Object>> holder = withVif(node, vif);
        if (holder.isPresent()) {
            throw Rejection.conflict("Unable to attach VIF because VIF " + vif + " is already attached to Ironic Port "
                    + holder.get().get("uuid"));
        }
        Map<String, Object> free = ports(node).values().stream()
                .filter(p -> internalInfo(p).get(Port.VIF_KEY) == null)
                .min(Comparator.comparing((Map<String, Object> p) -> !Boolean.TRUE.equals(p.get("pxe_enabled")))
                        .thenComparing(p -> (String) p.get("created_at")))
                .orElseThrow(() -> Rejection.badRequest("Unable to attach VIF " + vif + ", not enough free physical ports."));
        Map<String, Object> port = new LinkedHashMap<>(free);
        Map<String, Object> info = new LinkedHashMap<>(internalInfo(free));
        info.put(Port.VIF_KEY, vif);
        port.put("internal_info", info);
        return write(node, port);
    }

    static Uni<Void> detachVif(NodeEntity node, DetachVif command) {
        String vif = requireVif(command.getVifId());
        Map<String, Object> holder = withVif(node, vif).orElseThrow(() -> Rejection.badRequest("Unable to detach VIF "
                + vif + " from node " + node.uuid + " because it is not attached to it."));
        Map<String, Object> port = new LinkedHashMap<>(holder);
        Map<String, Object> info = new LinkedHashMap<>(internalInfo(holder));
        info.remove(Port.VIF_KEY);
        port.put("internal_info", info);
        return write(node, port);
    }

    private static String requireVif(String vif) {
        if (vif == null || vif.isBlank() || vif.length() > 255) {
            throw Rejection.badRequest("Invalid VIF id '" + vif + "': 1 to 255 characters.");
        }
        return vif;
    }

    private static Optional<Map<String, Object>> withVif(NodeEntity node, String vif) {
        return ports(node).values().stream().filter(p -> vif.equals(internalInfo(p).get(Port.VIF_KEY))).findFirst();
    }

    /** Writes a changed port to the table and the node's copy. */
    @SuppressWarnings("unchecked")
    private static Uni<Void> write(NodeEntity node, Map<String, Object> port) {
        Instant now = now();
        port.put("updated_at", now.toString());
        put(node, port);
        return execute("UPDATE ports SET address = ?2, pxe_enabled = ?3, physical_network = ?4,"
                + " local_link_connection = cast(cast(?5 as text) as jsonb), extra = cast(cast(?6 as text) as jsonb), internal_info = cast(cast(?7 as text) as jsonb),"
                + " updated_at = ?8, portgroup_uuid = cast(cast(?9 as text) as uuid) WHERE uuid = ?1", UUID.fromString((String) port.get("uuid")), port.get("address"),
                port.get("pxe_enabled"), port.get("physical_network"), json((Map<String, Object>) port.get("local_link_connection")),
                json((Map<String, Object>) port.get("extra")), json(internalInfo(port)), now.atOffset(ZoneOffset.UTC),
                port.get("portgroup_uuid"));
    }

    private static Map<String, Object> require(NodeEntity node, String portUuid) {
        Map<String, Object> port = ports(node).get(portUuid);
        if (port == null) {
            throw Rejection.notFound("Port " + portUuid + " could not be found.");
        }
        return port;
    }

    private static Uni<Void> requireFreeAddress(String address, String portUuid) {
        return count("SELECT count(*) FROM ports WHERE address = ?1 AND uuid <> ?2", address, UUID.fromString(portUuid))
                .map(n -> {
                    if (n > 0) {
                        throw Rejection.conflict("A port with MAC address " + address + " already exists.");
                    }
                    return null;
                });
    }

    @SuppressWarnings("unchecked")
    static Map<String, Map<String, Object>> ports(NodeEntity node) {
        Map<String, Map<String, Object>> ports = new LinkedHashMap<>();
        node.ports.forEach((uuid, port) -> ports.put(uuid, (Map<String, Object>) port));
        return ports;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> dict(Object value) {
        return value instanceof Map<?, ?> m ? (Map<String, Object>) m : Map.of();
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> internalInfo(Map<String, Object> port) {
        Object info = port.get("internal_info");
        return info instanceof Map<?, ?> m ? (Map<String, Object>) m : Map.of();
    }

    private static void put(NodeEntity node, Map<String, Object> port) {
        Map<String, Object> ports = new HashMap<>(node.ports); // a new map, so Hibernate sees the column changed
        ports.put((String) port.get("uuid"), port);
        node.ports = ports;
    }

    static Uni<Long> count(String sql, Object... values) {
        return Panache.getSession().flatMap(session -> {
            var query = session.createNativeQuery(sql, Long.class);
            for (int i = 0; i < values.length; i++) {
                query.setParameter(i + 1, values[i]);
            }
            return query.getSingleResult();
        });
    }

    static Uni<Void> execute(String sql, Object... values) {
        return Panache.getSession().flatMap(session -> {
            var statement = session.createNativeQuery(sql, NONE);
            for (int i = 0; i < values.length; i++) {
                statement.setParameter(i + 1, values[i]);
            }
            return statement.executeUpdate();
        }).replaceWithVoid();
    }

    static String json(Map<String, Object> dict) {
        try {
            return JSON.writeValueAsString(dict);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    static Instant now() {
        return Instant.now().truncatedTo(ChronoUnit.MILLIS);
    }
}
