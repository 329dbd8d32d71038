package io.ironflow.conductor.scenarios;

import io.ironflow.conductor.testing.Conductor;
import io.ironflow.conductor.testing.ConductorScenario;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ironflow.deploy.testing.IronflowTestInfrastructure;
import io.ironflow.events.ChangeTraits;
import io.ironflow.events.IntentResult;
import io.ironflow.events.NodeEvent;
import io.ironflow.events.SetBootMode;
import io.ironflow.events.SetSecureBoot;
import io.ironflow.schemas.Topic;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The node settings of Ironic's API 1.37-1.82 on the conductor, over real Kafka and PostgreSQL: traits, boot mode
 * and secure boot, network_data and shard by patch, each in the node's snapshot; and node history, projected from
 * ironflow.node-events with each transition's intent and requester, kept after the node is deleted.
 */
@QuarkusTest
@QuarkusTestResource(IronflowTestInfrastructure.class)
class NodeSettingsAndHistoryTest extends ConductorScenario {

    @Test
    void traitsAreSetAddedRemovedAndCarriedInTheSnapshot() throws Exception {
        String node = conductor.create(Map.of());
        IntentResult set = traits(node, "set", "CUSTOM_B", "HW_CPU_X86_AVX2");
        assertEquals(200, set.getCode(), set.getErrorMessage());
        assertEquals(List.of("CUSTOM_B", "HW_CPU_X86_AVX2"), set.getNode().getTraits());
        assertEquals(List.of("CUSTOM_A", "CUSTOM_B", "HW_CPU_X86_AVX2"), traits(node, "add", "CUSTOM_A").getNode().getTraits());

        IntentResult invalid = traits(node, "add", "custom_lower");
        assertEquals(400, invalid.getCode());
        IntentResult missing = traits(node, "remove", "CUSTOM_Z");
        assertEquals(404, missing.getCode());
        assertEquals("Node " + node + " doesn't have a trait 'CUSTOM_Z'", missing.getErrorMessage());
        assertEquals("{CUSTOM_A,CUSTOM_B,HW_CPU_X86_AVX2}", conductor.column(node, "traits"),
                "a refused change changes nothing");

        assertEquals(List.of("CUSTOM_B", "HW_CPU_X86_AVX2"), traits(node, "remove", "CUSTOM_A").getNode().getTraits());
        assertEquals(List.of(), traits(node, "remove").getNode().getTraits());
    }

    @Test
    void bootModeAndSecureBootAreSetAsTheManagementInterfaceWould() throws Exception {
        String node = conductor.create(Map.of());
        assertNull(conductor.column(node, "boot_mode"));
        assertEquals(400, conductor.send(node, SetBootMode.newBuilder().setTarget("efi").build()).getCode());

        // Secure boot needs uefi: accepted (202), refused by the hardware, reported in last_error.
        assertEquals(202, conductor.send(node, SetSecureBoot.newBuilder().setTarget(true).build()).getCode());
        assertTrue(conductor.column(node, "last_error").contains("uefi"), conductor.column(node, "last_error"));
        assertNull(conductor.column(node, "secure_boot"));

        IntentResult uefi = conductor.send(node, SetBootMode.newBuilder().setTarget("uefi").build());
        assertEquals(202, uefi.getCode(), uefi.getErrorMessage());
        assertEquals("uefi", uefi.getNode().getBootMode());
        assertNull(uefi.getNode().getLastError(), "a new operation clears the last error");
        IntentResult secure = conductor.send(node, SetSecureBoot.newBuilder().setTarget(true).build());
        assertEquals(Boolean.TRUE, secure.getNode().getSecureBoot());

        IntentResult bios = conductor.send(node, SetBootMode.newBuilder().setTarget("bios").build());
        assertEquals("bios", bios.getNode().getBootMode());
        assertEquals(Boolean.FALSE, bios.getNode().getSecureBoot(), "legacy BIOS has no secure boot");
    }

    @Test
    void networkDataAndShardArePatched() throws Exception {
        String node = conductor.create(Map.of());
        IntentResult patched = conductor.patch(node, "[{\"op\": \"add\", \"path\": \"/network_data\", \"value\": "
                + "{\"links\": [{\"id\": \"eth0\"}], \"networks\": [], \"services\": []}},"
                + " {\"op\": \"add\", \"path\": \"/shard\", \"value\": \"rack-1\"}]");
        assertEquals(200, patched.getCode(), patched.getErrorMessage());
        assertEquals("rack-1", patched.getNode().getShard());
        assertTrue(patched.getNode().getNetworkData().contains("eth0"), patched.getNode().getNetworkData());
        assertEquals(400, conductor.patch(node, "[{\"op\": \"add\", \"path\": \"/shard\", \"value\": \"\"}]").getCode());
        assertEquals(400, conductor.patch(node, "[{\"op\": \"add\", \"path\": \"/network_data\", \"value\": 5}]").getCode());
        assertEquals("rack-1", conductor.column(node, "shard"));
        IntentResult removed = conductor.patch(node, "[{\"op\": \"remove\", \"path\": \"/shard\"}]");
        assertNull(removed.getNode().getShard());
    }

    @Test
    void historyHasEveryTransitionWithItsIntentAndRequesterAndOutlivesTheNode() throws Exception {
        String node = conductor.create(Map.of());
        conductor.drive(node, "manage", "manageable");
        assertEquals(204, conductor.delete(node).getCode());

        List<NodeEvent> events = conductor.events(node, 4); // create, manage, done (verify), delete
        NodeEvent deletion = events.get(events.size() - 1);
        assertEquals("destroy", deletion.getEvent());
        assertEquals("manageable", deletion.getFromState());
        assertNull(deletion.getToState());
        assertEquals("test", deletion.getRequester());

        String rows = "FROM node_history WHERE node_uuid = '" + node + "'";
        await().atMost(Conductor.WAIT).untilAsserted(() ->
                assertEquals(String.valueOf(events.size()), conductor.query("SELECT count(*) " + rows)));
        assertEquals("create|null|enroll|test|INFO|provisioning", conductor.query("SELECT string_agg(transition || '|'"
                + " || coalesce(from_state, 'null') || '|' || to_state || '|' || requester || '|' || severity || '|' ||"
                + " event_type, ',') " + rows + " AND transition = 'create'"));
        assertEquals(events.get(1).getIntentId(), conductor.query("SELECT intent_id " + rows + " AND transition = 'manage'"));
        assertTrue(conductor.query("SELECT event " + rows + " AND transition = 'destroy'").startsWith("Node deleted in manageable"));
        assertEquals("0", conductor.query("SELECT count(*) FROM nodes WHERE uuid = '" + node + "'"));
    }

    @Test
    void historySkipsRecordsItCannotUseAndWritesEveryOtherOnceInOrder() throws Exception {
        String node = conductor.create(Map.of());
        conductor.drive(node, "manage", "manageable");
        List<NodeEvent> events = conductor.events(node, 3); // create, manage, done (verify)
        String rows = "FROM node_history WHERE node_uuid = '" + node + "'";
        await().atMost(Conductor.WAIT).untilAsserted(() ->
                assertEquals(String.valueOf(events.size()), conductor.query("SELECT count(*) " + rows)));

        String topic = Topic.NODE_EVENTS.topicName();
        conductor.publish(topic, node, NodeEvent.newBuilder(events.get(1)).setEventId("not-a-uuid").build());
        conductor.publish(topic, node, events.get(1)); // redelivered
        conductor.publishRaw(topic, node, "not avro".getBytes(StandardCharsets.UTF_8));
        conductor.publishRaw(topic, node, conductor.wrongType(Conductor.intent(node, ChangeTraits.newBuilder()
                .setOperation("set").setTraits(List.of("CUSTOM_WRONG_TYPE")).build())));
        conductor.publish(topic, node, NodeEvent.newBuilder(events.get(1)).setEventId(UUID.randomUUID().toString())
                .setRequester("nul\0in text").build());
        String last = UUID.randomUUID().toString();
        conductor.publish(topic, node, NodeEvent.newBuilder(events.get(2)).setEventId(last).build());

        await().atMost(Conductor.WAIT).untilAsserted(() ->
                assertEquals(String.valueOf(events.size() + 2), conductor.query("SELECT count(*) " + rows)));
        assertEquals("1", conductor.query("SELECT count(*) " + rows + " AND event_id = '" + events.get(1).getEventId() + "'"));
        assertEquals("create,manage,done,manage,done", conductor.query("SELECT string_agg(transition, ',' ORDER BY seq) " + rows));
        assertEquals("nul\uFFFDin text", conductor.query("SELECT requester " + rows + " ORDER BY seq DESC OFFSET 1 LIMIT 1"));
        assertEquals(last, conductor.query("SELECT event_id " + rows + " ORDER BY seq DESC LIMIT 1"));
    }

    private IntentResult traits(String node, String operation, String... names) {
        return conductor.send(node, ChangeTraits.newBuilder().setOperation(operation).setTraits(List.of(names)).build());
    }
}
