package io.ironflow.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ironflow.events.ChangeTraits;
import io.ironflow.events.NodeIntent;
import io.ironflow.events.NodeSnapshot;
import io.ironflow.events.ProvisionAction;
import io.ironflow.events.SetBootMode;
import io.ironflow.events.SetSecureBoot;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The API of Ironic 1.66-1.82 and the node sub-resources, on real Kafka, registry and PostgreSQL with
 * {@link FakeConductor} in the conductor's place: what each endpoint sends (one intent, keyed by the node's uuid)
 * and what it reads from the tables the conductor writes (traits, BIOS, history, shards), with Ironic's shapes,
 * status codes and version gates.
 */
@QuarkusTest
class NodeSubresourcesTest extends WithFakeConductor {

    private static final ObjectMapper JSON = new ObjectMapper();

    // ---- microversions 1.66-1.82

    @Test
    void undeployAndDeployAreServedAtTheMaximumVersion() {
        String uuid = node("active");
        conductor.answer(uuid, intent -> FakeConductor.accepted(intent, 202, snapshot(uuid)));
        for (String verb : List.of("undeploy", "deploy")) {
            Response response = request("{\"target\": \"" + verb + "\"}").put("/v1/nodes/" + uuid + "/states/provision");
            assertEquals(202, response.statusCode(), response.asString());
            assertEquals("1.82", response.header("X-OpenStack-Ironic-API-Version"));
        }
        List<String> sent = conductor.intentsFor(uuid).stream().map(i -> ((ProvisionAction) i.getCommand()).getTarget()).toList();
        assertEquals(List.of("undeploy", "deploy"), sent);
    }

    @Test
    void disableRamdiskGoesWithManualCleaningOnly() {
        String uuid = node("manageable");
        conductor.answer(uuid, intent -> FakeConductor.accepted(intent, 202, snapshot(uuid)));
        String steps = "[{\"interface\": \"deploy\", \"step\": \"erase_devices_metadata\"}]";
        Response clean = request("{\"target\": \"clean\", \"clean_steps\": " + steps + ", \"disable_ramdisk\": true}")
                .put("/v1/nodes/" + uuid + "/states/provision");
        assertEquals(202, clean.statusCode(), clean.asString());
        assertEquals(Boolean.TRUE, ((ProvisionAction) conductor.intentsFor(uuid).get(0).getCommand()).getDisableRamdisk());

        Response provide = request("{\"target\": \"provide\", \"disable_ramdisk\": true}").put("/v1/nodes/" + uuid + "/states/provision");
        assertEquals(400, provide.statusCode());
        Response old = at("1.69", "{\"target\": \"clean\", \"clean_steps\": " + steps + ", \"disable_ramdisk\": true}")
                .put("/v1/nodes/" + uuid + "/states/provision");
        assertEquals(406, old.statusCode());
        assertEquals(1, conductor.intentsFor(uuid).size(), "refusals send nothing");
    }

    @Test
    void newerNodeFieldsAreShownFromTheirVersion() {
        String uuid = node("enroll");
        NodeTable.execute(jdbcUrl, "UPDATE nodes SET network_data = '{\"links\": []}', boot_mode = 'uefi', secure_boot = true,"
                + " shard = 'rack-1', traits = '{CUSTOM_A}' WHERE uuid = ?", UUID.fromString(uuid));
        Response latest = Api.latest().get("/v1/nodes/" + uuid);
        assertEquals("uefi", latest.path("boot_mode"));
        assertEquals(Boolean.TRUE, latest.path("secure_boot"));
        assertEquals("rack-1", latest.path("shard"));
        assertEquals(List.of(), latest.path("network_data.links"));
        assertEquals(List.of("CUSTOM_A"), latest.path("traits"));
        Response older = at("1.74", null).get("/v1/nodes/" + uuid);
        assertNull(older.path("boot_mode"));
        assertNull(older.path("shard"));
        assertEquals(List.of(), older.path("network_data.links"), "network_data came with 1.66");
        assertNull(at("1.65", null).get("/v1/nodes/" + uuid).path("network_data"));

        Response create = at("1.81", "{\"driver\": \"fake-hardware\", \"shard\": \"s\"}").post("/v1/nodes");
        assertEquals(406, create.statusCode(), "shard came with 1.82");
    }

    @Test
    void createAndPatchSendNetworkDataAndShard() {
        conductor.answerEveryOtherNode(intent -> FakeConductor.accepted(intent, 201, snapshot(intent.getNodeUuid())));
        Response created = request("{\"driver\": \"fake-hardware\", \"shard\": \"rack-2\", \"network_data\": {\"links\": []}}")
                .post("/v1/nodes");
        assertEquals(201, created.statusCode(), created.asString());
        String uuid = created.path("uuid");
        io.ironflow.events.CreateNode command = (io.ironflow.events.CreateNode) conductor.intentsFor(uuid).get(0).getCommand();
        assertEquals("rack-2", command.getShard());
        assertEquals("{\"links\":[]}", command.getNetworkData());
        conductor.answerEveryOtherNode(null);

        Response badShard = request("{\"driver\": \"fake-hardware\", \"shard\": 5}").post("/v1/nodes");
        assertEquals(400, badShard.statusCode());
        Response badNetwork = request("{\"driver\": \"fake-hardware\", \"network_data\": []}").post("/v1/nodes");
        assertEquals(400, badNetwork.statusCode());
    }

    @Test
    void bootModeAndSecureBootAreStateChanges() {
        String uuid = node("manageable");
        conductor.answer(uuid, intent -> FakeConductor.accepted(intent, 202, snapshot(uuid)));
        Response mode = request("{\"target\": \"uefi\"}").put("/v1/nodes/" + uuid + "/states/boot_mode");
        assertEquals(202, mode.statusCode(), mode.asString());
        assertTrue(mode.header("Location").endsWith("/v1/nodes/" + uuid + "/states"));
        Response secure = request("{\"target\": true}").put("/v1/nodes/" + uuid + "/states/secure_boot");
        assertEquals(202, secure.statusCode(), secure.asString());
        List<NodeIntent> sent = conductor.intentsFor(uuid);
        assertEquals("uefi", ((SetBootMode) sent.get(0).getCommand()).getTarget());
        assertTrue(((SetSecureBoot) sent.get(1).getCommand()).getTarget());

        assertEquals(400, request("{\"target\": \"efi\"}").put("/v1/nodes/" + uuid + "/states/boot_mode").statusCode());
        assertEquals(400, request("{\"target\": 3}").put("/v1/nodes/" + uuid + "/states/secure_boot").statusCode());
        assertEquals(406, at("1.74", "{\"target\": \"uefi\"}").put("/v1/nodes/" + uuid + "/states/boot_mode").statusCode());
        assertEquals(2, conductor.intentsFor(uuid).size(), "refusals send nothing");
    }

    @Test
    void shardsCountNodesPerShardAndFilterTheList() {
        String shard = "shard-" + UUID.randomUUID();
        String a = node("enroll");
        String b = node("enroll");
        node("enroll");
        for (String uuid : List.of(a, b)) {
            NodeTable.execute(jdbcUrl, "UPDATE nodes SET shard = ? WHERE uuid = ?", shard, UUID.fromString(uuid));
        }
        Response shards = Api.latest().get("/v1/shards");
        assertEquals(200, shards.statusCode());
        List<Integer> counts = shards.path("shards.findAll { it.name == '" + shard + "' }.count");
        assertEquals(List.of(2), counts);
        assertEquals(404, at("1.81", null).get("/v1/shards").statusCode());

        List<String> listed = Api.latest().get("/v1/nodes?shard=" + shard + ",other").path("nodes.uuid");
        assertEquals(List.of(a, b).stream().sorted().toList(), listed.stream().sorted().toList());
        List<String> unsharded = Api.latest().get("/v1/nodes?sharded=false&limit=1000").path("nodes.uuid");
        assertFalse(unsharded.contains(a));
        assertEquals(406, at("1.81", null).get("/v1/nodes?shard=" + shard).statusCode());
    }

    @Test
    void driverFieldsSelectWhatIsShown() {
        Response response = Api.latest().get("/v1/drivers?fields=name,hosts");
        assertEquals(200, response.statusCode(), response.asString());
        for (Object driver : response.jsonPath().getList("drivers")) {
            assertEquals(List.of("name", "hosts"), new ArrayList<>(((java.util.Map<?, ?>) driver).keySet().stream().map(Object::toString).toList()));
        }
        assertEquals(400, Api.latest().get("/v1/drivers?fields=name,bogus").statusCode());
        assertEquals(406, at("1.76", null).get("/v1/drivers?fields=name").statusCode());
    }

    // ---- traits

    @Test
    void traitsAreReadFromTheNodeAndChangedByIntents() {
        String uuid = node("enroll");
        NodeTable.execute(jdbcUrl, "UPDATE nodes SET traits = '{CUSTOM_A,HW_CPU_X86_AVX2}' WHERE uuid = ?", UUID.fromString(uuid));
        Response list = Api.latest().get("/v1/nodes/" + uuid + "/traits");
        assertEquals(200, list.statusCode());
        assertEquals(List.of("CUSTOM_A", "HW_CPU_X86_AVX2"), list.path("traits"));

        conductor.answer(uuid, intent -> FakeConductor.accepted(intent, 200, snapshot(uuid)));
        Response set = request("{\"traits\": [\"CUSTOM_B\"]}").put("/v1/nodes/" + uuid + "/traits");
        assertEquals(204, set.statusCode(), set.asString());
        assertTrue(set.header("Location").endsWith("/v1/nodes/" + uuid + "/traits"));
        assertEquals(204, Api.latest().put("/v1/nodes/" + uuid + "/traits/CUSTOM_C").statusCode());
        assertEquals(204, Api.latest().delete("/v1/nodes/" + uuid + "/traits/CUSTOM_C").statusCode());
        assertEquals(204, Api.latest().delete("/v1/nodes/" + uuid + "/traits").statusCode());
        List<String> sent = conductor.intentsFor(uuid).stream().map(i -> (ChangeTraits) i.getCommand())
                .map(c -> c.getOperation() + c.getTraits()).toList();
        assertEquals(List.of("set[CUSTOM_B]", "add[CUSTOM_C]", "remove[CUSTOM_C]", "remove[]"), sent);

        assertEquals(400, request("{\"traits\": \"CUSTOM_B\"}").put("/v1/nodes/" + uuid + "/traits").statusCode());
        assertEquals(400, request("{\"traits\": [1]}").put("/v1/nodes/" + uuid + "/traits").statusCode());
        assertEquals(400, request("{\"traits\": []}").put("/v1/nodes/" + uuid + "/traits/CUSTOM_D").statusCode());
        assertEquals(404, at("1.36", null).get("/v1/nodes/" + uuid + "/traits").statusCode());
        assertEquals(4, conductor.intentsFor(uuid).size(), "refusals send nothing");
    }

    @Test
    void aTraitRefusedByTheConductorIsItsAnswer() throws Exception {
        String uuid = node("enroll");
        conductor.answer(uuid, intent -> FakeConductor.refused(intent, 404, "Node " + uuid + " doesn't have a trait 'CUSTOM_Z'"));
        Response missing = Api.latest().delete("/v1/nodes/" + uuid + "/traits/CUSTOM_Z");
        assertEquals(404, missing.statusCode());
        assertEquals("Node " + uuid + " doesn't have a trait 'CUSTOM_Z'", fault(missing));
    }

    // ---- BIOS

    @Test
    void biosSettingsComeFromTheFakeHardwareRecord() throws Exception {
        String uuid = node("manageable");
        NodeTable.execute(jdbcUrl, "UPDATE nodes SET driver_internal_info = '{\"fake_hardware\": {\"bios_settings\":"
                + " {\"LogicalProc\": \"Enabled\", \"NumaNodes\": 2}}}' WHERE uuid = ?", UUID.fromString(uuid));
        Response list = Api.latest().get("/v1/nodes/" + uuid + "/bios");
        assertEquals(200, list.statusCode(), list.asString());
        assertEquals(List.of("LogicalProc", "NumaNodes"), list.path("bios.name"));
        assertEquals(List.of("Enabled", "2"), list.path("bios.value"), "Ironic's values are strings");
        assertFalse(list.asString().contains("attribute_type"), "registry fields only with detail");
        Response detail = Api.latest().get("/v1/nodes/" + uuid + "/bios?detail=True");
        assertTrue(JSON.readTree(detail.asString()).at("/bios/0").has("attribute_type"), detail.asString());

        Response one = Api.latest().get("/v1/nodes/" + uuid + "/bios/LogicalProc");
        assertEquals(200, one.statusCode());
        assertEquals("Enabled", one.path("LogicalProc.value"));
        Response missing = Api.latest().get("/v1/nodes/" + uuid + "/bios/Nope");
        assertEquals(404, missing.statusCode());
        assertEquals("Node " + uuid + " doesn't have a BIOS setting 'Nope'", fault(missing));
        assertEquals(List.of(), Api.latest().get("/v1/nodes/" + node("enroll") + "/bios").path("bios"));
        assertEquals(404, at("1.39", null).get("/v1/nodes/" + uuid + "/bios").statusCode());
        assertEquals(406, at("1.73", null).get("/v1/nodes/" + uuid + "/bios?detail=True").statusCode());
    }

    // ---- inventory

    @Test
    void inventoryIsWhatTheLastInspectionRecorded() throws Exception {
        String uuid = node("manageable");
        Response never = Api.latest().get("/v1/nodes/" + uuid + "/inventory");
        assertEquals(404, never.statusCode());
        assertEquals("Node inventory record for node " + uuid + " could not be found.", fault(never));
        NodeTable.execute(jdbcUrl, "UPDATE nodes SET driver_internal_info = '{\"fake_hardware\": {\"inventory\":"
                + " {\"cpu\": {\"count\": 8}, \"interfaces\": [{\"name\": \"eth0\"}]}, \"plugin_data\": {\"macs\": []}}}'"
                + " WHERE uuid = ?", UUID.fromString(uuid));
        Response found = Api.latest().get("/v1/nodes/" + uuid + "/inventory");
        assertEquals(200, found.statusCode(), found.asString());
        assertEquals(8, (Integer) found.path("inventory.cpu.count"));
        assertEquals(List.of("eth0"), found.path("inventory.interfaces.name"));
        assertEquals(List.of(), found.path("plugin_data.macs"));
        assertEquals(404, at("1.80", null).get("/v1/nodes/" + uuid + "/inventory").statusCode(), "not a resource before 1.81");
        assertEquals(404, Api.latest().get("/v1/nodes/" + UUID.randomUUID() + "/inventory").statusCode());
    }

    // ---- history

    @Test
    void historyPagesThroughTheProjectedEventsAndOutlivesTheNode() throws Exception {
        String uuid = node("manageable");
        List<String> events = new ArrayList<>();
        for (String[] t : new String[][] {{null, "create", "enroll"}, {"enroll", "manage", "verifying"},
                {"verifying", "done", "manageable"}}) {
            String id = UUID.randomUUID().toString();
            events.add(id);
            NodeTable.execute(jdbcUrl, "INSERT INTO node_history (event_id, node_uuid, created_at, severity, event_type,"
                    + " event, conductor, requester, intent_id, from_state, to_state, transition) VALUES"
                    + " (?, ?, ?, 'INFO', 'provisioning', ?, 'c1', 'anonymous', 'i-1', ?, ?, ?)", UUID.fromString(id),
                    UUID.fromString(uuid), Timestamp.from(Instant.now()), "moved to " + t[2], t[0], t[2], t[1]);
        }
        Response all = Api.latest().get("/v1/nodes/" + uuid + "/history");
        assertEquals(200, all.statusCode(), all.asString());
        assertEquals(events, all.path("history.uuid"));
        JsonNode first = JSON.readTree(all.asString()).at("/history/0");
        assertEquals(List.of("uuid", "created_at", "severity", "event", "links"), names(first));
        assertNull(all.path("next"));

        Response detail = Api.latest().get("/v1/nodes/" + uuid + "/history/detail");
        assertEquals(List.of("uuid", "created_at", "severity", "event_type", "event", "conductor", "user", "links"),
                names(JSON.readTree(detail.asString()).at("/history/0")));
        assertEquals("anonymous", detail.path("history[0].user"));
        assertEquals(detail.asString(), Api.latest().get("/v1/nodes/" + uuid + "/history?detail=True").asString());

        Response page = Api.latest().get("/v1/nodes/" + uuid + "/history?limit=2");
        assertEquals(events.subList(0, 2), page.path("history.uuid"));
        String next = page.path("next");
        assertTrue(next.contains("marker=" + events.get(1)), next);
        assertEquals(events.subList(2, 3), Api.latest().get("/v1/nodes/" + uuid + "/history?limit=2&marker=" + events.get(1))
                .path("history.uuid"));

        Response one = Api.latest().get("/v1/nodes/" + uuid + "/history/" + events.get(1));
        assertEquals(200, one.statusCode());
        assertEquals("moved to verifying", one.path("event"));
        assertEquals("c1", one.path("conductor"));
        assertEquals(404, Api.latest().get("/v1/nodes/" + uuid + "/history/" + UUID.randomUUID()).statusCode());
        assertEquals(404, at("1.77", null).get("/v1/nodes/" + uuid + "/history").statusCode());

        NodeTable.execute(jdbcUrl, "DELETE FROM nodes WHERE uuid = ?", UUID.fromString(uuid));
        assertEquals(events, Api.latest().get("/v1/nodes/" + uuid + "/history").path("history.uuid"),
                "history outlives the node, by uuid");
        assertEquals(404, Api.latest().get("/v1/nodes/" + UUID.randomUUID() + "/history").statusCode());
    }

    // ---- helpers

    private String node(String provisionState) {
        return NodeTable.insert(jdbcUrl, new NodeTable.Row(null, provisionState, null, "power off", null, null, null, null));
    }

    private static RequestSpecification request(String body) {
        return Api.latest().contentType("application/json").body(body);
    }

    private static RequestSpecification at(String version, String body) {
        RequestSpecification request = io.restassured.RestAssured.given().header(Api.VERSION_HEADER, version);
        return body == null ? request : request.contentType("application/json").body(body);
    }

    private static NodeSnapshot snapshot(String uuid) {
        return NodeSnapshot.newBuilder().setUuid(uuid).setRevision(2).setDriver("fake-hardware")
                .setProvisionState("enroll").setCreatedAt(Instant.now()).build();
    }

    private static List<String> names(JsonNode object) {
        List<String> names = new ArrayList<>();
        object.fieldNames().forEachRemaining(names::add);
        return names;
    }

    private static String fault(Response response) throws Exception {
        return JSON.readTree(JSON.readTree(response.asString()).get("error_message").asText()).get("faultstring").asText();
    }
}
