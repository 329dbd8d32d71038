package io.ironflow.conductor.scenarios;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ironflow.conductor.testing.Conductor;
import io.ironflow.conductor.testing.ConductorScenario;
import io.ironflow.deploy.testing.IronflowTestInfrastructure;
import io.ironflow.events.CreateNode;
import io.ironflow.events.IntentResult;
import io.ironflow.events.NodeIntent;
import io.ironflow.events.UpdateNode;
import io.ironflow.policy.IntentRules;
import io.ironflow.policy.Principal;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Issue 58's OneView confused deputy, played through Kafka against the conductor, the only writer: the allocator and
 * the BMCs act with the operator's credentials on whatever hardware a node names, so an owner member may not choose
 * the hardware (403, by field or by a whole driver_info), nobody but the allocator records the applied profile
 * (400), one piece of server hardware belongs to one node (409, even for two writers at once, naming no other
 * node), and the owner of an active node changes only by a system admin (Ironic's update_owner_provisioned, 409).
 */
@QuarkusTest
@QuarkusTestResource(IronflowTestInfrastructure.class)
class SharedHardwareTest extends ConductorScenario {

    private static final String TEMPLATE = "/rest/server-profile-templates/spt-bl460c-ironic";
    private static final Principal OWNER_MEMBER = new Principal("member", "tenant-a", Set.of("member"), false);
    private static final Principal SYSTEM_MEMBER = new Principal("operator", null, Set.of("member"), true);
    private static final Principal SYSTEM_ADMIN = new Principal("admin", null, Set.of("admin"), true);
    private static final Principal ALLOCATOR = Principal.service("oneview-allocator");

    private static String hardware() {
        return "/rest/server-hardware/" + UUID.randomUUID();
    }

    private IntentResult as(Principal who, String node, Object command) {
        NodeIntent intent = NodeIntent.newBuilder(Conductor.intent(node, command)).setPrincipal(IntentRules.toAvro(who)).build();
        return conductor.sendAll(List.of(intent)).get(intent.getIntentId());
    }

    private static CreateNode oneview(String owner, String hardware) {
        return CreateNode.newBuilder().setDriver("oneview").setOwner(owner)
                .setDriverInfo(Conductor.json(Map.of("server_hardware_uri", hardware)))
                .setProperties(Conductor.json(Map.of("capabilities", "server_profile_template_uri:" + TEMPLATE)))
                .build();
    }

    private String enroll(String owner, String hardware) {
        String uuid = UUID.randomUUID().toString();
        IntentResult created = as(SYSTEM_ADMIN, uuid, oneview(owner, hardware));
        assertEquals(201, created.getCode(), created.getErrorMessage());
        return uuid;
    }

    private static UpdateNode patch(String json) {
        return new UpdateNode(json);
    }

    @Test
    void anOwnerMemberCannotPointItsNodeAtAnotherTenantsHardware() throws SQLException {
        String mine = hardware();
        String victims = hardware();
        String node = enroll("tenant-a", mine);
        enroll("tenant-b", victims);
        String revision = conductor.column(node, "revision");
        for (String attempt : List.of(
                "[{\"op\":\"replace\",\"path\":\"/driver_info/server_hardware_uri\",\"value\":\"" + victims + "\"}]",
                "[{\"op\":\"replace\",\"path\":\"/driver_info\",\"value\":{\"server_hardware_uri\":\"" + victims + "\"}}]",
                "[{\"op\":\"add\",\"path\":\"/driver_info/dynamic_allocation\",\"value\":false}]",
                "[{\"op\":\"add\",\"path\":\"/driver_info/redfish_address\",\"value\":\"https://10.0.0.9\"}]")) {
            IntentResult refused = as(OWNER_MEMBER, node, patch(attempt));
            assertEquals(403, refused.getCode(), attempt + ": " + refused.getErrorMessage());
            assertTrue(refused.getErrorMessage().contains("ironflow:node:update:driver_info:bmc_address"), refused.getErrorMessage());
        }
        assertEquals(mine, conductor.column(node, "driver_info->>'server_hardware_uri'"));
        assertEquals(revision, conductor.column(node, "revision"), "nothing changed");
        // The owner keeps the rest of driver_info, and may rewrite it whole while the hardware stays.
        assertEquals(200, as(OWNER_MEMBER, node, patch("[{\"op\":\"add\",\"path\":\"/driver_info/deploy_kernel\",\"value\":\"k\"}]")).getCode());
        assertEquals(200, as(OWNER_MEMBER, node, patch("[{\"op\":\"replace\",\"path\":\"/driver_info\",\"value\":{\"server_hardware_uri\":\""
                + mine + "\"}}]")).getCode());
        // A system member moves it, to free hardware.
        String free = hardware();
        IntentResult moved = as(SYSTEM_MEMBER, node, patch("[{\"op\":\"replace\",\"path\":\"/driver_info/server_hardware_uri\",\"value\":\"" + free + "\"}]"));
        assertEquals(200, moved.getCode(), moved.getErrorMessage());
    }

    @Test
    void theAppliedProfileIsRecordedByTheAllocatorAlone() throws SQLException {
        String node = enroll("tenant-a", hardware());
        String copy = "[{\"op\":\"add\",\"path\":\"/driver_info/applied_server_profile_uri\",\"value\":\"/rest/server-profiles/victims\"}]";
        for (Principal who : List.of(OWNER_MEMBER, SYSTEM_ADMIN, Principal.service("teardown-orchestrator"), Principal.NOAUTH)) {
            IntentResult refused = as(who, node, patch(copy));
            assertEquals(400, refused.getCode(), who + ": " + refused.getErrorMessage());
            assertTrue(refused.getErrorMessage().contains("internal attribute"), refused.getErrorMessage());
        }
        String whole = "[{\"op\":\"replace\",\"path\":\"/driver_info\",\"value\":{\"server_hardware_uri\":\"/rest/server-hardware/x\","
                + "\"applied_server_profile_uri\":\"/rest/server-profiles/victims\"}}]";
        assertEquals(400, as(SYSTEM_ADMIN, node, patch(whole)).getCode());
        assertNull(conductor.column(node, "driver_info->>'applied_server_profile_uri'"));
        String created = UUID.randomUUID().toString();
        IntentResult born = as(SYSTEM_ADMIN, created, CreateNode.newBuilder().setDriver("oneview")
                .setDriverInfo(Conductor.json(Map.of("server_hardware_uri", hardware(), "applied_server_profile_uri", "/rest/server-profiles/v")))
                .build());
        assertEquals(400, born.getCode(), born.getErrorMessage());

        IntentResult recorded = as(ALLOCATOR, node, patch(copy));
        assertEquals(200, recorded.getCode(), recorded.getErrorMessage());
        assertEquals("/rest/server-profiles/victims", conductor.column(node, "driver_info->>'applied_server_profile_uri'"));
        assertEquals(200, as(ALLOCATOR, node, patch("[{\"op\":\"remove\",\"path\":\"/driver_info/applied_server_profile_uri\"}]")).getCode());
    }

    @Test
    void oneServerHardwareBelongsToOneNodeAndTheRefusalNamesNoOtherNode() throws SQLException {
        String taken = hardware();
        String holder = enroll("tenant-b", taken);
        String second = UUID.randomUUID().toString();
        IntentResult refused = as(SYSTEM_ADMIN, second, oneview("tenant-a", taken));
        assertEquals(409, refused.getCode(), refused.getErrorMessage());
        assertFalse(refused.getErrorMessage().contains(holder), refused.getErrorMessage());
        assertEquals("0", conductor.query("SELECT count(*) FROM nodes WHERE uuid = '" + second + "'"));

        String other = enroll("tenant-a", hardware());
        IntentResult moved = as(SYSTEM_ADMIN, other, patch("[{\"op\":\"replace\",\"path\":\"/driver_info/server_hardware_uri\",\"value\":\"" + taken + "\"}]"));
        assertEquals(409, moved.getCode(), moved.getErrorMessage());
        assertFalse(moved.getErrorMessage().contains(holder), moved.getErrorMessage());
    }

    @Test
    void twoWritersAtOnceCannotBothTakeTheSameHardware() throws SQLException {
        String contested = hardware();
        List<NodeIntent> creations = List.of(
                NodeIntent.newBuilder(Conductor.intent(UUID.randomUUID().toString(), oneview("tenant-a", contested))).build(),
                NodeIntent.newBuilder(Conductor.intent(UUID.randomUUID().toString(), oneview("tenant-b", contested))).build(),
                NodeIntent.newBuilder(Conductor.intent(UUID.randomUUID().toString(), oneview("tenant-c", contested))).build());
        Map<String, IntentResult> created = conductor.sendAll(creations);
        assertEquals(1, created.values().stream().filter(r -> r.getCode() == 201).count(), created.toString());
        assertEquals(2, created.values().stream().filter(r -> r.getCode() == 409).count(), created.toString());

        String next = hardware();
        String a = enroll("tenant-a", hardware());
        String b = enroll("tenant-b", hardware());
        String move = "[{\"op\":\"replace\",\"path\":\"/driver_info/server_hardware_uri\",\"value\":\"" + next + "\"}]";
        Map<String, IntentResult> moved = conductor.sendAll(List.of(Conductor.intent(a, patch(move)), Conductor.intent(b, patch(move))));
        assertEquals(Set.of(200, 409), Set.copyOf(moved.values().stream().map(IntentResult::getCode).toList()), moved.toString());
        assertEquals("1", conductor.query("SELECT count(*) FROM nodes WHERE driver_info->>'server_hardware_uri' = '" + next + "'"));
    }

    @Test
    void theOwnerOfAnActiveNodeChangesOnlyByASystemAdmin() throws SQLException {
        String node = UUID.randomUUID().toString();
        assertEquals(201, as(SYSTEM_ADMIN, node, CreateNode.newBuilder().setDriver("fake-hardware").setOwner("tenant-a").build()).getCode());
        conductor.drive(node, "manage", "manageable");
        conductor.drive(node, "provide", "available");
        conductor.drive(node, "active", "active");
        String give = "[{\"op\":\"replace\",\"path\":\"/owner\",\"value\":\"tenant-b\"}]";
        IntentResult refused = as(SYSTEM_MEMBER, node, patch(give));
        assertEquals(409, refused.getCode(), refused.getErrorMessage());
        assertEquals("Cannot update owner of node \"" + node + "\" while it is in state \"active\".", refused.getErrorMessage());
        assertEquals("tenant-a", conductor.column(node, "owner"));
        IntentResult given = as(SYSTEM_ADMIN, node, patch(give));
        assertEquals(200, given.getCode(), given.getErrorMessage());
        assertEquals("tenant-b", conductor.column(node, "owner"));
    }
}
