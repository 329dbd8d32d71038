package io.ironflow.conductor.intents;

import io.ironflow.conductor.domain.NodeNames;
import io.ironflow.conductor.domain.Port;
import io.ironflow.conductor.domain.Portgroup;
import io.ironflow.conductor.domain.ProvisionState;
import io.ironflow.conductor.domain.Rejection;
import io.ironflow.conductor.messaging.NodeSnapshots;
import io.ironflow.conductor.persistence.NodeEntity;
import io.ironflow.events.CreatePortgroup;
import io.ironflow.events.DeletePortgroup;
import io.ironflow.events.UpdatePortgroup;
import io.smallrye.mutiny.Uni;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;

/**
 * What the portgroup commands do, inside the intent's transaction, on a node the caller holds (as
 * {@link PortCommands} for ports): the checks first (a refusal changes nothing), then the portgroups table and the
 * node's copy ({@code nodes.portgroups}, which its snapshot carries) together. Name and address are unique among
 * all portgroups (409); a portgroup that still has ports is not deleted (409, Ironic's PortgroupNotEmpty).
 */
final class PortgroupCommands {

    private PortgroupCommands() {
    }

    static Uni<Void> create(NodeEntity node, CreatePortgroup command) {
        String uuid = NodeNames.requireUuid(command.getPortgroupUuid()).toString();
        String name = Portgroup.requireName(command.getName(), "Cannot create portgroup with invalid name '"
                + command.getName() + "'");
        String address = command.getAddress() == null ? null : Port.requireMac(command.getAddress());
        Portgroup.requireChangeable(node.uuid.toString(), ProvisionState.fromWire(node.provisionState), node.maintenance, "add");
        Map<String, Object> properties = NodeSnapshots.dict("properties", command.getProperties());
        Map<String, Object> extra = NodeSnapshots.dict("extra", command.getExtra());
        String mode = command.getMode() == null ? Portgroup.DEFAULT_MODE : command.getMode();
        boolean standalone = command.getStandalonePortsSupported() == null || command.getStandalonePortsSupported();
        return PortCommands.count("SELECT count(*) FROM portgroups WHERE uuid = ?1", UUID.fromString(uuid)).flatMap(n -> {
            if (n > 0) {
                throw Rejection.conflict("A portgroup with UUID " + uuid + " already exists.");
            }
            return requireUnique(uuid, name, address);
        }).flatMap(x -> {
            Instant now = PortCommands.now();
            Map<String, Object> portgroup = new LinkedHashMap<>();
            portgroup.put("uuid", uuid);
            portgroup.put("name", name);
            portgroup.put("address", address);
            portgroup.put("node_uuid", node.uuid.toString());
            portgroup.put("mode", mode);
            portgroup.put("standalone_ports_supported", standalone);
            portgroup.put("properties", properties);
            portgroup.put("extra", extra);
            portgroup.put("internal_info", new LinkedHashMap<>());
            portgroup.put("created_at", now.toString());
            portgroup.put("updated_at", null);
            put(node, portgroup);
            return PortCommands.execute("INSERT INTO portgroups (uuid, name, address, node_uuid, mode,"
                    + " standalone_ports_supported, properties, extra, internal_info, created_at) VALUES (?1, ?2, ?3, ?4,"
                    + " ?5, ?6, cast(cast(?7 as text) as jsonb), cast(cast(?8 as text) as jsonb), '{}', ?9)",
                    UUID.fromString(uuid), name, address, node.uuid, mode, standalone, PortCommands.json(properties),
                    PortCommands.json(extra), now.atOffset(ZoneOffset.UTC));
        });
    }

    @SuppressWarnings("unchecked")
    static Uni<Void> update(NodeEntity node, UpdatePortgroup command) {
        Map<String, Object> portgroup = require(node, command.getPortgroupUuid());
        Map<String, Object> after = Portgroup.patch(portgroup, command.getPatch());
        boolean readdressed = !Objects.equals(after.get("address"), portgroup.get("address"));
        if (readdressed) {
            Portgroup.requireChangeable(node.uuid.toString(), ProvisionState.fromWire(node.provisionState),
                    node.maintenance, "change the address of");
        }
        String uuid = (String) portgroup.get("uuid");
        String name = Objects.equals(after.get("name"), portgroup.get("name")) ? null : (String) after.get("name");
        return requireUnique(uuid, name, readdressed ? (String) after.get("address") : null).flatMap(x -> {
            Instant now = PortCommands.now();
            after.put("updated_at", now.toString());
            put(node, after);
            return PortCommands.execute("UPDATE portgroups SET name = ?2, address = ?3, mode = ?4,"
                    + " standalone_ports_supported = ?5, properties = cast(cast(?6 as text) as jsonb),"
                    + " extra = cast(cast(?7 as text) as jsonb), updated_at = ?8 WHERE uuid = ?1", UUID.fromString(uuid),
                    after.get("name"), after.get("address"), after.get("mode"), after.get("standalone_ports_supported"),
                    PortCommands.json((Map<String, Object>) after.get("properties")),
                    PortCommands.json((Map<String, Object>) after.get("extra")), now.atOffset(ZoneOffset.UTC));
        });
    }

    static Uni<Void> delete(NodeEntity node, DeletePortgroup command) {
        Map<String, Object> portgroup = require(node, command.getPortgroupUuid());
        String uuid = (String) portgroup.get("uuid");
        Portgroup.requireChangeable(node.uuid.toString(), ProvisionState.fromWire(node.provisionState), node.maintenance, "remove");
        if (PortCommands.ports(node).values().stream().anyMatch(p -> uuid.equals(p.get("portgroup_uuid")))) {
            throw Rejection.conflict("Cannot complete the requested action because portgroup " + uuid + " contains ports.");
        }
        node.portgroups = new HashMap<>(node.portgroups);
        node.portgroups.remove(uuid);
        return PortCommands.execute("DELETE FROM portgroups WHERE uuid = ?1", UUID.fromString(uuid));
    }

    /**
     * The portgroup a port of this node may join (null: none): one of the same node's, and, when it does not
     * support standalone ports, only a port that neither boots (pxe_enabled) nor carries a VIF, as Ironic.
     */
    static String requireMember(NodeEntity node, String port, String portgroupUuid, boolean pxeEnabled, Map<String, Object> extra) {
        if (portgroupUuid == null) {
            return null;
        }
        Map<String, Object> portgroup = portgroups(node).get(portgroupUuid);
        if (portgroup == null) {
            throw Rejection.badRequest("Port can not be added to portgroup " + portgroupUuid + ": it is not a portgroup"
                    + " of node " + node.uuid + ".");
        }
        if (Boolean.FALSE.equals(portgroup.get("standalone_ports_supported")) && (pxeEnabled || extra.get("vif_port_id") != null)) {
            throw Rejection.conflict("Port group " + portgroupUuid + " doesn't support standalone ports. This port " + port
                    + " cannot be a member of that port group because either 'extra/vif_port_id' was specified or"
                    + " 'pxe_enabled' was set to True.");
        }
        return portgroupUuid;
    }

    private static Uni<Void> requireUnique(String uuid, String name, String address) {
        Uni<Void> named = name == null ? Uni.createFrom().voidItem()
                : PortCommands.count("SELECT count(*) FROM portgroups WHERE name = ?1 AND uuid <> ?2", name, UUID.fromString(uuid))
                        .map(n -> {
                            if (n > 0) {
                                throw Rejection.conflict("A portgroup with name " + name + " already exists.");
                            }
                            return null;
                        });
        return named.flatMap(x -> address == null ? Uni.createFrom().voidItem()
                : PortCommands.count("SELECT count(*) FROM portgroups WHERE address = ?1 AND uuid <> ?2", address,
                        UUID.fromString(uuid)).map(n -> {
                            if (n > 0) {
                                throw Rejection.conflict("A portgroup with MAC address " + address + " already exists.");
                            }
                            return null;
                        }));
    }

    private static Map<String, Object> require(NodeEntity node, String portgroupUuid) {
        Map<String, Object> portgroup = portgroups(node).get(portgroupUuid);
        if (portgroup == null) {
            throw Rejection.notFound("Portgroup " + portgroupUuid + " could not be found.");
        }
        return portgroup;
    }

    @SuppressWarnings("unchecked")
    static Map<String, Map<String, Object>> portgroups(NodeEntity node) {
        Map<String, Map<String, Object>> portgroups = new LinkedHashMap<>();
        node.portgroups.forEach((uuid, portgroup) -> portgroups.put(uuid, (Map<String, Object>) portgroup));
        return portgroups;
    }

    private static void put(NodeEntity node, Map<String, Object> portgroup) {
        Map<String, Object> portgroups = new HashMap<>(node.portgroups); // a new map, so Hibernate sees the column changed
        portgroups.put((String) portgroup.get("uuid"), portgroup);
        node.portgroups = portgroups;
    }
}
