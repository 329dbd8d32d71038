package io.ironflow.conductor.scenarios;

import io.ironflow.conductor.testing.ConductorScenario;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ironflow.deploy.testing.IronflowTestInfrastructure;
import io.ironflow.events.AttachVif;
import io.ironflow.events.CreatePort;
import io.ironflow.events.DeletePort;
import io.ironflow.events.DetachVif;
import io.ironflow.events.IntentResult;
import io.ironflow.events.PortSnapshot;
import io.ironflow.events.UpdatePort;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Ports and VIFs on the conductor, over real Kafka and PostgreSQL: a MAC address unique among all nodes (409),
 * normalized to lower case; no port change on an active node outside maintenance; VIFs in a free port's
 * internal_info.tenant_vif_port_id; ports in the node's snapshot and gone with the node.
 */
@QuarkusTest
@QuarkusTestResource(IronflowTestInfrastructure.class)
class PortsTest extends ConductorScenario {

    @Test
    void portsAreCreatedPatchedAndDeletedWithUniqueAddresses() throws Exception {
        String node = conductor.create(Map.of());
        String mac = randomMac();
        String port = UUID.randomUUID().toString();
        IntentResult created = create(node, port, mac.toUpperCase());
        assertEquals(201, created.getCode(), created.getErrorMessage());
        PortSnapshot snapshot = created.getNode().getPorts().get(0);
        assertEquals(mac, snapshot.getAddress(), "stored lower case");
        assertTrue(snapshot.getPxeEnabled());
        assertEquals(mac, conductor.query("SELECT address FROM ports WHERE uuid = '" + port + "'"));

        String other = conductor.create(Map.of());
        IntentResult taken = create(other, UUID.randomUUID().toString(), mac);
        assertEquals(409, taken.getCode());
        assertEquals("A port with MAC address " + mac + " already exists.", taken.getErrorMessage());
        assertEquals(400, create(other, UUID.randomUUID().toString(), "not-a-mac").getCode());

        IntentResult patched = conductor.send(node, UpdatePort.newBuilder().setPortUuid(port).setPatch(
                "[{\"op\": \"replace\", \"path\": \"/pxe_enabled\", \"value\": false},"
                        + " {\"op\": \"add\", \"path\": \"/extra/rack\", \"value\": \"r1\"}]").build());
        assertEquals(200, patched.getCode(), patched.getErrorMessage());
        assertEquals(false, patched.getNode().getPorts().get(0).getPxeEnabled());
        assertEquals("{\"rack\":\"r1\"}", patched.getNode().getPorts().get(0).getExtra());
        assertEquals("r1", conductor.query("SELECT extra->>'rack' FROM ports WHERE uuid = '" + port + "'"), "a JSON object");
        assertEquals(400, conductor.send(node, UpdatePort.newBuilder().setPortUuid(port)
                .setPatch("[{\"op\": \"replace\", \"path\": \"/internal_info\", \"value\": {}}]").build()).getCode());

        IntentResult deleted = conductor.send(node, DeletePort.newBuilder().setPortUuid(port).build());
        assertEquals(204, deleted.getCode(), deleted.getErrorMessage());
        assertEquals(0, deleted.getNode().getPorts().size());
        assertEquals("0", conductor.query("SELECT count(*) FROM ports WHERE uuid = '" + port + "'"));
        assertEquals(404, conductor.send(node, DeletePort.newBuilder().setPortUuid(port).build()).getCode());
    }

    @Test
    void anActiveNodesPortsChangeOnlyInMaintenance() throws Exception {
        String node = conductor.create(Map.of());
        conductor.drive(node, "manage", "manageable");
        conductor.drive(node, "provide", "available");
        conductor.drive(node, "active", "active");
        IntentResult refused = create(node, UUID.randomUUID().toString(), randomMac());
        assertEquals(409, refused.getCode());
        assertTrue(refused.getErrorMessage().contains("maintenance"), refused.getErrorMessage());
        conductor.maintenance(node, true, "recabling");
        assertEquals(201, create(node, UUID.randomUUID().toString(), randomMac()).getCode());
    }

    @Test
    void vifsGoToFreePortsAndComeOff() throws Exception {
        String node = conductor.create(Map.of());
        assertEquals(400, attach(node, "vif-0").getCode(), "no port, no VIF");
        String first = UUID.randomUUID().toString();
        assertEquals(201, create(node, first, randomMac()).getCode());
        IntentResult attached = attach(node, "vif-1");
        assertEquals(204, attached.getCode(), attached.getErrorMessage());
        assertEquals("{\"tenant_vif_port_id\":\"vif-1\"}", attached.getNode().getPorts().get(0).getInternalInfo());
        assertEquals("vif-1", conductor.query("SELECT internal_info->>'tenant_vif_port_id' FROM ports WHERE uuid = '" + first + "'"),
                conductor.query("SELECT internal_info::text || ' ' || coalesce(updated_at::text, '-') || ' ' || address FROM ports WHERE uuid = '" + first + "'"));
        IntentResult again = attach(node, "vif-1");
        assertEquals(409, again.getCode());
        IntentResult full = attach(node, "vif-2");
        assertEquals(400, full.getCode());
        assertEquals("Unable to attach VIF vif-2, not enough free physical ports.", full.getErrorMessage());

        IntentResult detached = conductor.send(node, DetachVif.newBuilder().setVifId("vif-1").build());
        assertEquals(204, detached.getCode(), detached.getErrorMessage());
        assertEquals("{}", detached.getNode().getPorts().get(0).getInternalInfo());
        IntentResult notAttached = conductor.send(node, DetachVif.newBuilder().setVifId("vif-1").build());
        assertEquals(400, notAttached.getCode());
        assertNull(conductor.query("SELECT internal_info->>'tenant_vif_port_id' FROM ports WHERE uuid = '" + first + "'"));
    }

    @Test
    void inspectionFindsOneInterfacePerPort() throws Exception {
        String node = conductor.create(Map.of());
        String first = randomMac();
        String second = randomMac();
        create(node, UUID.randomUUID().toString(), first);
        conductor.send(node, CreatePort.newBuilder().setPortUuid(UUID.randomUUID().toString()).setAddress(second)
                .setPxeEnabled(false).build());
        conductor.drive(node, "manage", "manageable");
        conductor.drive(node, "inspect", "manageable");
        String inventory = "driver_internal_info->'fake_hardware'->'inventory'";
        // Creation order; two ports made in the same millisecond go by uuid.
        assertEquals(java.util.Set.of(first, second), java.util.Set.of(
                conductor.column(node, inventory + "->'interfaces'->0->>'mac_address'"),
                conductor.column(node, inventory + "->'interfaces'->1->>'mac_address'")));
        assertEquals(first, conductor.column(node, inventory + "->'boot'->>'pxe_interface'"), "the pxe-enabled port");
        assertEquals("2", conductor.column(node, "jsonb_array_length(driver_internal_info->'fake_hardware'->'plugin_data'->'macs')"));
    }

    @Test
    void deletingTheNodeDeletesItsPorts() throws Exception {
        String node = conductor.create(Map.of());
        String port = UUID.randomUUID().toString();
        create(node, port, randomMac());
        assertEquals(204, conductor.delete(node).getCode());
        assertEquals("0", conductor.query("SELECT count(*) FROM ports WHERE uuid = '" + port + "'"));
    }

    private IntentResult create(String node, String port, String mac) {
        return conductor.send(node, CreatePort.newBuilder().setPortUuid(port).setAddress(mac).build());
    }

    private IntentResult attach(String node, String vif) {
        return conductor.send(node, AttachVif.newBuilder().setVifId(vif).build());
    }

    static String randomMac() {
        String hex = UUID.randomUUID().toString().replace("-", "");
        return String.join(":", hex.substring(0, 2), hex.substring(2, 4), hex.substring(4, 6), hex.substring(6, 8),
                hex.substring(8, 10), hex.substring(10, 12));
    }
}
