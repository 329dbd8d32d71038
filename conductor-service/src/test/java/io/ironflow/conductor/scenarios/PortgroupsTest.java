package io.ironflow.conductor.scenarios;

import io.ironflow.conductor.testing.ConductorScenario;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.ironflow.deploy.testing.IronflowTestInfrastructure;
import io.ironflow.events.CreatePort;
import io.ironflow.events.CreatePortgroup;
import io.ironflow.events.DeletePort;
import io.ironflow.events.DeletePortgroup;
import io.ironflow.events.IntentResult;
import io.ironflow.events.PortgroupSnapshot;
import io.ironflow.events.UpdatePort;
import io.ironflow.events.UpdatePortgroup;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Portgroups on the conductor, over real Kafka and PostgreSQL: name and MAC address unique among all portgroups
 * (409), Ironic's name rules and defaults; a port joins only a portgroup of its own node; a portgroup with ports is
 * not deleted (409); portgroups are in the node's snapshot and gone with the node.
 */
@QuarkusTest
@QuarkusTestResource(IronflowTestInfrastructure.class)
class PortgroupsTest extends ConductorScenario {

    @Test
    void portgroupsAreCreatedPatchedAndDeletedWithUniqueNamesAndAddresses() throws Exception {
        String node = conductor.create(Map.of());
        String mac = PortsTest.randomMac();
        String name = "bond-" + UUID.randomUUID().toString().substring(0, 8);
        String portgroup = UUID.randomUUID().toString();
        IntentResult created = create(node, portgroup, name, mac.toUpperCase());
        assertEquals(201, created.getCode(), created.getErrorMessage());
        PortgroupSnapshot snapshot = created.getNode().getPortgroups().get(0);
        assertEquals(mac, snapshot.getAddress(), "stored lower case");
        assertEquals("active-backup", snapshot.getMode(), "Ironic's default_portgroup_mode");
        assertEquals(true, snapshot.getStandalonePortsSupported());
        assertEquals(name, conductor.query("SELECT name FROM portgroups WHERE uuid = '" + portgroup + "'"));

        String other = conductor.create(Map.of());
        IntentResult sameName = create(other, UUID.randomUUID().toString(), name, null);
        assertEquals(409, sameName.getCode());
        assertEquals("A portgroup with name " + name + " already exists.", sameName.getErrorMessage());
        IntentResult sameMac = create(other, UUID.randomUUID().toString(), null, mac);
        assertEquals(409, sameMac.getCode());
        assertEquals("A portgroup with MAC address " + mac + " already exists.", sameMac.getErrorMessage());
        IntentResult badName = create(other, UUID.randomUUID().toString(), "no spaces", null);
        assertEquals(400, badName.getCode());
        assertEquals("Cannot create portgroup with invalid name 'no spaces'", badName.getErrorMessage());

        IntentResult patched = conductor.send(node, UpdatePortgroup.newBuilder().setPortgroupUuid(portgroup).setPatch(
                "[{\"op\": \"replace\", \"path\": \"/mode\", \"value\": \"802.3ad\"},"
                        + " {\"op\": \"add\", \"path\": \"/properties/miimon\", \"value\": \"100\"}]").build());
        assertEquals(200, patched.getCode(), patched.getErrorMessage());
        assertEquals("802.3ad", patched.getNode().getPortgroups().get(0).getMode());
        assertEquals("100", conductor.query("SELECT properties->>'miimon' FROM portgroups WHERE uuid = '" + portgroup + "'"));
        assertEquals(400, conductor.send(node, UpdatePortgroup.newBuilder().setPortgroupUuid(portgroup)
                .setPatch("[{\"op\": \"remove\", \"path\": \"/mode\"}]").build()).getCode());

        IntentResult deleted = conductor.send(node, DeletePortgroup.newBuilder().setPortgroupUuid(portgroup).build());
        assertEquals(204, deleted.getCode(), deleted.getErrorMessage());
        assertEquals(0, deleted.getNode().getPortgroups().size());
        assertEquals("0", conductor.query("SELECT count(*) FROM portgroups WHERE uuid = '" + portgroup + "'"));
    }

    @Test
    void aPortJoinsAPortgroupOfItsNodeAndAPortgroupWithPortsStays() throws Exception {
        String node = conductor.create(Map.of());
        String portgroup = UUID.randomUUID().toString();
        assertEquals(201, create(node, portgroup, null, null).getCode());
        String port = UUID.randomUUID().toString();
        IntentResult member = conductor.send(node, CreatePort.newBuilder().setPortUuid(port).setAddress(PortsTest.randomMac())
                .setPortgroupUuid(portgroup).build());
        assertEquals(201, member.getCode(), member.getErrorMessage());
        assertEquals(portgroup, member.getNode().getPorts().get(0).getPortgroupUuid());
        assertEquals(portgroup, conductor.query("SELECT portgroup_uuid FROM ports WHERE uuid = '" + port + "'"));

        IntentResult refused = conductor.send(node, DeletePortgroup.newBuilder().setPortgroupUuid(portgroup).build());
        assertEquals(409, refused.getCode());
        assertEquals("Cannot complete the requested action because portgroup " + portgroup + " contains ports.",
                refused.getErrorMessage());

        String other = conductor.create(Map.of());
        IntentResult elsewhere = conductor.send(other, CreatePort.newBuilder().setPortUuid(UUID.randomUUID().toString())
                .setAddress(PortsTest.randomMac()).setPortgroupUuid(portgroup).build());
        assertEquals(400, elsewhere.getCode(), "a portgroup of another node");

        IntentResult left = conductor.send(node, UpdatePort.newBuilder().setPortUuid(port)
                .setPatch("[{\"op\": \"remove\", \"path\": \"/portgroup_uuid\"}]").build());
        assertEquals(200, left.getCode(), left.getErrorMessage());
        assertNull(conductor.query("SELECT portgroup_uuid FROM ports WHERE uuid = '" + port + "'"));
        assertEquals(204, conductor.send(node, DeletePortgroup.newBuilder().setPortgroupUuid(portgroup).build()).getCode());
        assertEquals(204, conductor.send(node, DeletePort.newBuilder().setPortUuid(port).build()).getCode());
    }

    @Test
    void deletingTheNodeDeletesItsPortgroupsAndTheirPorts() throws Exception {
        String node = conductor.create(Map.of());
        String portgroup = UUID.randomUUID().toString();
        create(node, portgroup, null, null);
        conductor.send(node, CreatePort.newBuilder().setPortUuid(UUID.randomUUID().toString()).setAddress(PortsTest.randomMac())
                .setPortgroupUuid(portgroup).build());
        assertEquals(204, conductor.delete(node).getCode());
        assertEquals("0", conductor.query("SELECT count(*) FROM portgroups WHERE uuid = '" + portgroup + "'"));
        assertEquals("0", conductor.query("SELECT count(*) FROM ports WHERE portgroup_uuid = '" + portgroup + "'"));
    }

    private IntentResult create(String node, String uuid, String name, String mac) {
        return conductor.send(node, CreatePortgroup.newBuilder().setPortgroupUuid(uuid).setName(name).setAddress(mac).build());
    }
}
