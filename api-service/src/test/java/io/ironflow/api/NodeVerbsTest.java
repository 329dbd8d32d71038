package io.ironflow.api;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ironflow.api.intents.RecordedAnswers;
import io.ironflow.deploy.testing.KafkaTestClient;
import io.ironflow.events.ChangePowerState;
import io.ironflow.events.DeleteNode;
import io.ironflow.events.IntentResult;
import io.ironflow.events.NodeIntent;
import io.ironflow.events.NodeSnapshot;
import io.ironflow.events.ProvisionAction;
import io.ironflow.events.SetMaintenance;
import io.ironflow.events.UpdateNode;
import io.ironflow.schemas.Topic;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Stream;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The node verbs on real Kafka, registry and PostgreSQL, with {@link FakeConductor} answering intents in the
 * conductor's place: what the API refuses by itself (404, 400, nothing sent), and how it maps the conductor's
 * answers to Ironic's (202 + Location, 200, 204, refusals with the conductor's code). The infrastructure is the
 * module's global test resource, declared on {@link NodeWritesWithoutConductorTest}.
 */
@QuarkusTest
class NodeVerbsTest extends WithFakeConductor {

    @Inject
    RecordedAnswers recordedAnswers;

    private static final ObjectMapper JSON = new ObjectMapper();
    // ---- refused by the API itself

    static Stream<Arguments> everyEndpoint() {
        return Stream.of(
                Arguments.of("GET", "/states", null),
                Arguments.of("PUT", "/states/provision", "{\"target\": \"manage\"}"),
                Arguments.of("PUT", "/states/power", "{\"target\": \"power on\"}"),
                Arguments.of("PUT", "/maintenance", "{\"reason\": \"r\"}"),
                Arguments.of("DELETE", "/maintenance", null),
                Arguments.of("PATCH", "", "[{\"op\": \"replace\", \"path\": \"/extra/a\", \"value\": 1}]"),
                Arguments.of("DELETE", "", null),
                Arguments.of("GET", "", null));
    }

    /**
     * Named, or by a uuid not in its canonical form, an unknown node is the API's own 404 and nothing is sent. By
     * its uuid, an operator's write goes to the conductor, whose 404 (NodeEdits, on the row it locks) is passed on.
     */
    @ParameterizedTest
    @MethodSource("everyEndpoint")
    void anUnknownNodeIs404OnEveryEndpoint(String method, String path, String body) throws Exception {
        String uuid = UUID.randomUUID().toString();
        int before = conductor.intentsRead();
        for (String ident : List.of("no-such-node", uuid.toUpperCase(java.util.Locale.ROOT))) {
            Response response = request(body).request(method, "/v1/nodes/" + ident + path);
            assertEquals(404, response.statusCode(), response.asString());
            assertEquals("Node " + ident + " could not be found.", fault(response).get("faultstring").asText());
        }
        assertEquals(before, conductor.intentsRead());

        conductor.answer(uuid, intent -> FakeConductor.refused(intent, 404, "Node " + uuid + " could not be found."));
        Response response = request(body).request(method, "/v1/nodes/" + uuid + path);
        assertEquals(404, response.statusCode(), response.asString());
        assertEquals("Node " + uuid + " could not be found.", fault(response).get("faultstring").asText());
        assertEquals(method.equals("GET") ? 0 : 1, conductor.intentsFor(uuid).size(), "reads are the API's own");
    }

    static Stream<Arguments> malformedBodies() {
        return Stream.of(
                Arguments.of("PUT", "/states/provision", "{\"target\": "),
                Arguments.of("PUT", "/states/provision", ""),
                // json.loads refuses what follows the first value ("Extra data"): it is not acted on
                Arguments.of("PUT", "/states/provision", "{\"target\": \"manage\"}}garbage"),
                Arguments.of("PUT", "/states/provision", "{\"target\": \"manage\"} {\"target\": \"deleted\"}"),
                Arguments.of("PATCH", "", "[{\"op\": \"add\", \"path\": \"/extra/a\", \"value\": 1}] ]"),
                Arguments.of("PUT", "/states/provision", "[]"),
                Arguments.of("PUT", "/states/provision", "{}"),
                Arguments.of("PUT", "/states/provision", "{\"target\": null}"),
                Arguments.of("PUT", "/states/provision", "{\"target\": 7}"),
                Arguments.of("PUT", "/states/provision", "{\"target\": \"manage\", \"bogus\": 1}"),
                Arguments.of("PUT", "/states/provision", "{\"target\": \"clean\", \"clean_steps\": {}}"),
                Arguments.of("PUT", "/states/provision", "{\"target\": \"rescue\", \"rescue_password\": 5}"),
                Arguments.of("PUT", "/states/provision", "{\"target\": \"active\", \"configdrive\": 5}"),
                Arguments.of("PUT", "/states/provision", "{\"target\": \"rescue\", \"rescue_password\": 5}"),
                Arguments.of("PUT", "/states/power", "{"),
                Arguments.of("PUT", "/states/power", "{\"timeout\": 5}"),
                Arguments.of("PUT", "/states/power", "{\"target\": [\"power on\"]}"),
                Arguments.of("PUT", "/states/power", "{\"target\": \"power on\", \"timeout\": 0}"),
                Arguments.of("PUT", "/states/power", "{\"target\": \"power on\", \"timeout\": 1.5}"),
                Arguments.of("PUT", "/states/power", "{\"target\": \"power on\", \"timeout\": \"5\"}"),
                Arguments.of("PUT", "/states/power", "{\"target\": \"power on\", \"bogus\": 1}"),
                Arguments.of("PUT", "/maintenance", "{"),
                Arguments.of("PUT", "/maintenance", "[]"),
                Arguments.of("PUT", "/maintenance", "{\"reason\": 5}"),
                Arguments.of("PUT", "/maintenance", "{\"why\": \"x\"}"),
                Arguments.of("PATCH", "", "["),
                Arguments.of("PATCH", "", ""),
                Arguments.of("PATCH", "", "{}"),
                Arguments.of("PATCH", "", "[]"),
                Arguments.of("PATCH", "", "[1]"),
                Arguments.of("PATCH", "", "[{\"path\": \"/extra/a\", \"value\": 1}]"),
                Arguments.of("PATCH", "", "[{\"op\": \"delete\", \"path\": \"/extra/a\"}]"),
                Arguments.of("PATCH", "", "[{\"op\": \"replace\", \"path\": \"extra/a\", \"value\": 1}]"),
                Arguments.of("PATCH", "", "[{\"op\": \"replace\", \"path\": 7, \"value\": 1}]"),
                Arguments.of("PATCH", "", "[{\"op\": \"add\", \"path\": \"/extra/a\"}]"),
                Arguments.of("PATCH", "", "[{\"op\": \"remove\", \"path\": \"/extra/a\", \"bogus\": 1}]"),
                Arguments.of("PATCH", "", "[{\"op\": \"remove\", \"path\": \"/extra/a\"}, {\"op\": \"replace\", \"path\": \"/name\"}]"));
    }

    @ParameterizedTest
    @MethodSource("malformedBodies")
    void malformedBodiesAre400AndSendNothing(String method, String path, String body) throws Exception {
        String uuid = NodeTable.insert(jdbcUrl, NodeTable.Row.named(null));
        conductor.answer(uuid, intent -> FakeConductor.accepted(intent, 202, snapshot(uuid, "enroll")));
        Response response = request(body).request(method, "/v1/nodes/" + uuid + path);
        assertEquals(400, response.statusCode(), response.asString());
        JsonNode fault = fault(response);
        assertEquals("Client", fault.get("faultcode").asText());
        assertTrue(fault.has("debuginfo"));
        assertTrue(!fault.get("faultstring").asText().isBlank());
        // The fake conductor reads every intent before it answers, and the API waits for that answer before it
        // responds: had anything been published, it would be in this list already.
        assertEquals(List.of(), conductor.intentsFor(uuid));
    }

    @Test
    void whatIronicDoesNotTakeIsRefusedSayingSo() throws Exception {
        String uuid = NodeTable.insert(jdbcUrl, NodeTable.Row.named(null));
        for (String field : List.of("deploy_steps", "service_steps", "runbook")) {
            Response response = request("{\"target\": \"deploy\", \"" + field + "\": []}")
                    .put("/v1/nodes/" + uuid + "/states/provision");
            assertEquals(400, response.statusCode(), response.asString());
            assertTrue(fault(response).get("faultstring").asText().contains("\"" + field + "\" is not supported"));
        }
        for (String op : List.of("move", "copy", "test")) {
            Response response = request("[{\"op\": \"" + op + "\", \"from\": \"/extra/a\", \"path\": \"/extra/b\", \"value\": 1}]")
                    .patch("/v1/nodes/" + uuid);
            assertEquals(400, response.statusCode(), response.asString());
            assertTrue(fault(response).get("faultstring").asText().contains("'" + op + "' is not supported"),
                    response.asString());
        }
        assertEquals(List.of(), conductor.intentsFor(uuid));
    }

    // ---- the conductor's answers, mapped

    @Test
    void anAcceptedProvisionVerbIs202WithTheStatesLocationAndTheBodyAsGiven() throws Exception {
        String name = "prov-" + System.nanoTime();
        String uuid = NodeTable.insert(jdbcUrl, NodeTable.Row.named(name));
        conductor.answer(uuid, intent -> FakeConductor.accepted(intent, 202, snapshot(uuid, "cleaning")));
        String steps = "[{\"interface\":\"deploy\",\"step\":\"erase_devices\",\"args\":{\"x\":1}}]";
        Response response = request("{\"target\": \"clean\", \"clean_steps\": " + steps + "}")
                .put("/v1/nodes/" + name + "/states/provision"); // by name: the intent still goes by uuid
        assertEquals(202, response.statusCode(), response.asString());
        assertEquals("", response.asString());
        assertTrue(response.header("Location").endsWith("/v1/nodes/" + uuid + "/states"), response.header("Location"));

        NodeIntent intent = single(uuid);
        assertEquals("anonymous", intent.getRequester());
        ProvisionAction action = (ProvisionAction) intent.getCommand();
        assertEquals("clean", action.getTarget());
        assertEquals(JSON.readTree(steps), JSON.readTree(action.getCleanSteps()));
        assertNull(action.getConfigDrive());
        assertNull(action.getDisableRamdisk(), "not asked for");
        assertNull(action.getRescuePassword());
    }

    /** Ironic tests clean_steps for truth: an empty list is none, with manage as with clean (which then needs some). */
    @Test
    void anEmptyCleanStepsListIsNone() throws Exception {
        String uuid = NodeTable.insert(jdbcUrl, NodeTable.Row.named(null));
        conductor.answer(uuid, intent -> FakeConductor.accepted(intent, 202, snapshot(uuid, "manageable")));
        Response response = request("{\"target\": \"manage\", \"clean_steps\": []}").put("/v1/nodes/" + uuid + "/states/provision");
        assertEquals(202, response.statusCode(), response.asString());
        assertNull(((ProvisionAction) single(uuid).getCommand()).getCleanSteps());
    }

    @Test
    void anyVerbIsTheConductorsToJudge() throws Exception {
        String uuid = NodeTable.insert(jdbcUrl, NodeTable.Row.named(null));
        conductor.answer(uuid, intent -> FakeConductor.accepted(intent, 202, snapshot(uuid, "enroll")));
        Response response = request("{\"target\": \"frobnicate\", \"rescue_password\": \"\"}")
                .put("/v1/nodes/" + uuid + "/states/provision");
        assertEquals(202, response.statusCode(), response.asString());
        ProvisionAction action = (ProvisionAction) single(uuid).getCommand();
        assertEquals("frobnicate", action.getTarget());
        assertEquals("", action.getRescuePassword());
        assertNull(action.getConfigDrive());
        assertNull(action.getCleanSteps());
        assertNull(action.getDisableRamdisk());
    }

    /** A config drive as Ironic's check_allow_configdrive takes it, and each of its 400s, at the version named. */
    static Stream<Arguments> configDrives() {
        return Stream.of(
                Arguments.of("1.82", "{\"target\": \"active\", \"configdrive\": \"H4sIAAAA\\n\"}", 202, null),
                Arguments.of("1.82", "{\"target\": \"active\", \"configdrive\": \"http://images.example/cd.gz\"}", 202, null),
                Arguments.of("1.35", "{\"target\": \"rebuild\", \"configdrive\": \"H4sI\"}", 202, null),
                Arguments.of("1.59", "{\"target\": \"active\", \"configdrive\": {\"meta_data\": {\"k\": \"v\"},"
                        + " \"user_data\": \"#cloud-config\", \"vendor_data\": {}}}", 202, null),
                Arguments.of("1.82", "{\"target\": \"manage\", \"configdrive\": \"\"}", 202, null), // none: any verb
                Arguments.of("1.82", "{\"target\": \"manage\", \"configdrive\": {}}", 202, null),
                Arguments.of("1.82", "{\"target\": \"manage\", \"configdrive\": \"H4sI\"}", 400,
                        "only supported when setting provision state to active, rebuild"),
                Arguments.of("1.82", "{\"target\": \"deleted\", \"configdrive\": {\"meta_data\": {}}}", 400,
                        "only supported when setting provision state to active, rebuild"),
                Arguments.of("1.34", "{\"target\": \"rebuild\", \"configdrive\": \"H4sI\"}", 400,
                        "only supported when setting provision state to active"),
                Arguments.of("1.82", "{\"target\": \"active\", \"configdrive\": \"not base64!\"}", 400,
                        "neither a JSON, nor a URL, nor a base64 string"),
                Arguments.of("1.82", "{\"target\": \"active\", \"configdrive\": {\"bogus\": {}}}", 400,
                        "'bogus' was unexpected"),
                Arguments.of("1.82", "{\"target\": \"active\", \"configdrive\": {\"meta_data\": \"x\"}}", 400,
                        "meta_data is not of type 'object'"),
                Arguments.of("1.82", "{\"target\": \"active\", \"configdrive\": 5}", 400, "is not of type"),
                // Ironic checks the type before it tests the value for truth: these are not "no config drive"
                Arguments.of("1.82", "{\"target\": \"manage\", \"configdrive\": false}", 400, "is not of type"),
                Arguments.of("1.82", "{\"target\": \"manage\", \"configdrive\": []}", 400, "is not of type"),
                Arguments.of("1.55", "{\"target\": \"active\", \"configdrive\": {\"meta_data\": {}}}", 400,
                        "starting with API version 1.56"),
                Arguments.of("1.58", "{\"target\": \"active\", \"configdrive\": {\"vendor_data\": {}}}", 400,
                        "starting with API version 1.59"));
    }

    @ParameterizedTest
    @MethodSource("configDrives")
    void aConfigDriveIsTakenOnlyWhereIronicTakesIt(String version, String body, int status, String message) throws Exception {
        String uuid = NodeTable.insert(jdbcUrl, NodeTable.Row.named(null));
        conductor.answer(uuid, intent -> FakeConductor.accepted(intent, 202, snapshot(uuid, "deploying")));
        Response response = io.restassured.RestAssured.given().header("X-OpenStack-Ironic-API-Version", version)
                .contentType("application/json").body(body).put("/v1/nodes/" + uuid + "/states/provision");
        assertEquals(status, response.statusCode(), response.asString());
        if (status == 202) {
            JsonNode given = JSON.readTree(body).path("configdrive");
            String sent = ((ProvisionAction) single(uuid).getCommand()).getConfigDrive();
            if (given.isEmpty() && !given.isTextual() || given.isTextual() && given.textValue().isEmpty()) {
                assertNull(sent, "an empty config drive is none");
            } else {
                assertEquals(given, given.isTextual() ? JSON.getNodeFactory().textNode(sent) : JSON.readTree(sent));
            }
        } else {
            assertTrue(fault(response).get("faultstring").asText().contains(message), response.asString());
            assertEquals(List.of(), conductor.intentsFor(uuid));
        }
    }

    /** The power timeout came with 1.27: before it a timeout is 406, as Ironic; a 0 is not a timeout there but a 400. */
    @Test
    void aPowerTimeoutNeeds127() throws Exception {
        String uuid = NodeTable.insert(jdbcUrl, NodeTable.Row.named(null));
        var at126 = io.restassured.RestAssured.given().header("X-OpenStack-Ironic-API-Version", "1.26").contentType("application/json");
        assertEquals(406, at126.body("{\"target\": \"power on\", \"timeout\": 30}").put("/v1/nodes/" + uuid + "/states/power").statusCode());
        assertEquals(406, at126.body("{\"target\": \"power on\", \"timeout\": -3}").put("/v1/nodes/" + uuid + "/states/power").statusCode());
        assertEquals(400, at126.body("{\"target\": \"power on\", \"timeout\": 0}").put("/v1/nodes/" + uuid + "/states/power").statusCode());
        assertEquals(List.of(), conductor.intentsFor(uuid));
    }

    /**
     * The conductor made the change and recorded its answer, but the answer did not reach the API in time (a
     * conductor just restarted, its relay slow): the client gets the recorded answer, not a 503 for a write that
     * was applied; a recorded refusal is that refusal.
     */
    @Test
    void aWriteWhoseAnswerIsLateGetsTheRecordedAnswerNotA503() throws Exception {
        String applied = NodeTable.insert(jdbcUrl, NodeTable.Row.named(null));
        conductor.answer(applied, intent -> {
            NodeTable.recordAnswer(jdbcUrl, intent.getIntentId(), applied, true, 202, null);
            return null; // no result published
        });
        Response response = request("{\"target\": \"manage\"}").put("/v1/nodes/" + applied + "/states/provision");
        assertEquals(202, response.statusCode(), response.asString());
        assertTrue(response.header("Location").endsWith("/v1/nodes/" + applied + "/states"), response.header("Location"));

        String refused = NodeTable.insert(jdbcUrl, NodeTable.Row.named(null));
        conductor.answer(refused, intent -> {
            NodeTable.recordAnswer(jdbcUrl, intent.getIntentId(), refused, false, 409, "Node " + refused + " is locked");
            return null;
        });
        Response conflict = request("{\"target\": \"manage\"}").put("/v1/nodes/" + refused + "/states/provision");
        assertEquals(409, conflict.statusCode(), conflict.asString());
        assertTrue(fault(conflict).get("faultstring").asText().contains("is locked"), conflict.asString());
    }

    @Test
    void aRecordedAnswerWithoutANodeIsReadWithoutOne() {
        // An intent that named no node that can exist is recorded with a null node_uuid (V30).
        String intentId = UUID.randomUUID().toString();
        NodeTable.recordAnswer(jdbcUrl, intentId, null, false, 404, "Node not-a-uuid could not be found.");
        IntentResult recorded = recordedAnswers.find(intentId).await().atMost(Duration.ofSeconds(10));
        assertEquals(404, recorded.getCode());
        assertEquals("", recorded.getNodeUuid());
        assertNull(recorded.getNode());
        assertNull(recordedAnswers.find(UUID.randomUUID().toString()).await().atMost(Duration.ofSeconds(10)));
    }

    @Test
    void anAcceptedPowerChangeIs202WithTheStatesLocation() {
        String uuid = NodeTable.insert(jdbcUrl, NodeTable.Row.named(null));
        conductor.answer(uuid, intent -> FakeConductor.accepted(intent, 202, snapshot(uuid, "enroll")));
        Response response = request("{\"target\": \"power on\", \"timeout\": 30}").put("/v1/nodes/" + uuid + "/states/power");
        assertEquals(202, response.statusCode(), response.asString());
        assertEquals("", response.asString());
        assertTrue(response.header("Location").endsWith("/v1/nodes/" + uuid + "/states"), response.header("Location"));
        ChangePowerState command = (ChangePowerState) single(uuid).getCommand();
        assertEquals("power on", command.getTarget());
        assertEquals(30, command.getTimeoutSeconds());
    }

    @Test
    void maintenanceIsSetWithOrWithoutAReasonAndClearedWith202() {
        String uuid = NodeTable.insert(jdbcUrl, NodeTable.Row.named(null));
        conductor.answer(uuid, intent -> FakeConductor.accepted(intent, 202, snapshot(uuid, "enroll")));
        assertEquals(202, request("{\"reason\": \"disk swap\"}").put("/v1/nodes/" + uuid + "/maintenance").statusCode());
        assertEquals(202, Api.latest().put("/v1/nodes/" + uuid + "/maintenance").statusCode());
        Response cleared = Api.latest().delete("/v1/nodes/" + uuid + "/maintenance");
        assertEquals(202, cleared.statusCode(), cleared.asString());
        assertEquals("", cleared.asString());
        List<SetMaintenance> commands = conductor.intentsFor(uuid).stream()
                .map(intent -> (SetMaintenance) intent.getCommand()).toList();
        assertEquals(List.of(
                SetMaintenance.newBuilder().setMaintenance(true).setReason("disk swap").build(),
                SetMaintenance.newBuilder().setMaintenance(true).setReason(null).build(),
                SetMaintenance.newBuilder().setMaintenance(false).setReason(null).build()), commands);
    }

    @Test
    void anAcceptedPatchIs200WithTheNodeTheConductorAnswered() throws Exception {
        String uuid = NodeTable.insert(jdbcUrl, NodeTable.Row.named(null));
        NodeSnapshot after = NodeSnapshot.newBuilder(snapshot(uuid, "enroll")).setExtra("{\"rack\": \"r1\"}").build();
        conductor.answer(uuid, intent -> FakeConductor.accepted(intent, 200, after));
        String patch = "[{\"op\": \"add\", \"path\": \"/extra/rack\", \"value\": \"r1\"}, {\"op\": \"remove\", \"path\": \"/extra/old\"}]";
        Response response = request(patch).patch("/v1/nodes/" + uuid);
        assertEquals(200, response.statusCode(), response.asString());
        JsonNode node = JSON.readTree(response.asString());
        assertEquals(uuid, node.get("uuid").asText());
        assertEquals("r1", node.get("extra").get("rack").asText());
        assertEquals(JSON.readTree(patch), JSON.readTree(((UpdateNode) single(uuid).getCommand()).getPatch()));
    }

    /**
     * reset_interfaces (1.45) only with a change of /driver: without one 400, not a boolean 400, below 1.45 406, and
     * in each case nothing is sent; with one the patch goes to the conductor as given.
     */
    @Test
    void resetInterfacesGoesOnlyWithAChangeOfTheDriver() throws Exception {
        String uuid = NodeTable.insert(jdbcUrl, NodeTable.Row.named(null));
        String driver = "[{\"op\": \"replace\", \"path\": \"/driver\", \"value\": \"oneview\"}]";
        Response noDriver = request("[{\"op\": \"add\", \"path\": \"/extra/a\", \"value\": 1}]")
                .queryParam("reset_interfaces", "true").patch("/v1/nodes/" + uuid);
        assertEquals(400, noDriver.statusCode(), noDriver.asString());
        assertEquals("The reset_interfaces parameter can only be used when changing the node's driver.",
                fault(noDriver).get("faultstring").asText());
        Response notABoolean = request(driver).queryParam("reset_interfaces", "maybe").patch("/v1/nodes/" + uuid);
        assertEquals(400, notABoolean.statusCode(), notABoolean.asString());
        Response tooOld = io.restassured.RestAssured.given().header(Api.VERSION_HEADER, "1.44").contentType("application/json")
                .body(driver).queryParam("reset_interfaces", "true").patch("/v1/nodes/" + uuid);
        assertEquals(406, tooOld.statusCode(), tooOld.asString());
        assertTrue(fault(tooOld).get("faultstring").asText().contains("reset_interfaces"), tooOld.asString());
        assertEquals(List.of(), conductor.intentsFor(uuid));

        NodeSnapshot after = NodeSnapshot.newBuilder(snapshot(uuid, "enroll")).setDriver("oneview").build();
        conductor.answer(uuid, intent -> FakeConductor.accepted(intent, 200, after));
        Response changed = request(driver).queryParam("reset_interfaces", "True").patch("/v1/nodes/" + uuid);
        assertEquals(200, changed.statusCode(), changed.asString());
        assertEquals("oneview", JSON.readTree(changed.asString()).get("driver").asText());
        assertEquals(JSON.readTree(driver), JSON.readTree(((UpdateNode) single(uuid).getCommand()).getPatch()));
    }

    @Test
    void anAcceptedDeleteIs204() {
        String uuid = NodeTable.insert(jdbcUrl, NodeTable.Row.named(null));
        conductor.answer(uuid, intent -> FakeConductor.accepted(intent, 200, null));
        Response response = Api.latest().delete("/v1/nodes/" + uuid);
        assertEquals(204, response.statusCode(), response.asString());
        assertEquals("", response.asString());
        assertTrue(single(uuid).getCommand() instanceof DeleteNode);
    }

    @Test
    void anUndecodableResultIsPassedOverAndTheNextAnswerStillArrives() {
        String uuid = NodeTable.insert(jdbcUrl, NodeTable.Row.named(null));
        try (KafkaTestClient kafka = new KafkaTestClient(bootstrapServers, registryUrl)) {
            // Keyed by the node, so they land on the partition its answer will, ahead of it: bytes no registry
            // framed, and a node snapshot, which decodes but is no result.
            kafka.sendRaw(Topic.INTENT_RESULTS.topicName(), uuid, "not a registry-framed record".getBytes(UTF_8));
            kafka.sendRaw(Topic.INTENT_RESULTS.topicName(), uuid, kafka.wrongType(snapshot(uuid, "enroll")));
        }
        conductor.answer(uuid, intent -> FakeConductor.accepted(intent, 200, null));
        Response response = Api.latest().delete("/v1/nodes/" + uuid);
        assertEquals(204, response.statusCode(), response.asString());
        assertEquals(200, Api.latest().get("/q/health/ready").statusCode());
    }

    @Test
    void aRefusalIsIronicsErrorWithTheConductorsCodeAndMessage() throws Exception {
        String uuid = NodeTable.insert(jdbcUrl, NodeTable.Row.named(null));
        String locked = "Node " + uuid + " is locked by host c1, please retry after the current operation is completed.";
        conductor.answer(uuid, intent -> intent.getCommand() instanceof ProvisionAction
                ? FakeConductor.refused(intent, 409, locked)
                : FakeConductor.refused(intent, 400, "Invalid input for field/attribute target."));
        Response conflict = request("{\"target\": \"manage\"}").put("/v1/nodes/" + uuid + "/states/provision");
        assertEquals(409, conflict.statusCode(), conflict.asString());
        assertEquals("Client", fault(conflict).get("faultcode").asText());
        assertEquals(locked, fault(conflict).get("faultstring").asText());
        Response invalid = request("{\"target\": \"power sideways\"}").put("/v1/nodes/" + uuid + "/states/power");
        assertEquals(400, invalid.statusCode(), invalid.asString());
        assertEquals("Invalid input for field/attribute target.", fault(invalid).get("faultstring").asText());
    }

    @Test
    void theStatesDocumentComesFromTheNodeTable() throws Exception {
        Instant changed = Instant.parse("2026-01-02T03:04:05.678Z");
        String uuid = NodeTable.insert(jdbcUrl, new NodeTable.Row(null, "clean wait", "manageable", "power on",
                "power off", "it broke", null, changed));
        Response response = Api.latest().get("/v1/nodes/" + uuid + "/states");
        assertEquals(200, response.statusCode(), response.asString());
        JsonNode states = JSON.readTree(response.asString());
        assertEquals(Set.of("console_enabled", "last_error", "power_state", "provision_state", "provision_updated_at",
                "raid_config", "target_power_state", "target_provision_state", "target_raid_config"),
                Set.copyOf(iterable(states)));
        assertEquals(false, states.get("console_enabled").asBoolean());
        assertEquals("it broke", states.get("last_error").asText());
        assertEquals("power on", states.get("power_state").asText());
        assertEquals("power off", states.get("target_power_state").asText());
        assertEquals("clean wait", states.get("provision_state").asText());
        assertEquals("manageable", states.get("target_provision_state").asText());
        assertEquals("2026-01-02T03:04:05.678000+00:00", states.get("provision_updated_at").asText());
        assertEquals(JSON.readTree("{}"), states.get("raid_config"));
        assertEquals(JSON.readTree("{}"), states.get("target_raid_config"));
    }

    // ---- helpers

    private static RequestSpecification request(String body) {
        RequestSpecification request = Api.latest();
        return body == null ? request : request.contentType("application/json").body(body);
    }

    private static NodeIntent single(String uuid) {
        List<NodeIntent> intents = conductor.intentsFor(uuid);
        assertEquals(1, intents.size(), intents.toString());
        assertEquals(uuid, intents.get(0).getNodeUuid());
        return intents.get(0);
    }

    private static NodeSnapshot snapshot(String uuid, String provisionState) {
        return NodeSnapshot.newBuilder()
                .setUuid(uuid)
                .setRevision(2)
                .setDriver("fake-hardware")
                .setProvisionState(provisionState)
                .setCreatedAt(Instant.now())
                .build();
    }

    private static List<String> iterable(JsonNode node) {
        List<String> names = new java.util.ArrayList<>();
        node.fieldNames().forEachRemaining(names::add);
        return names;
    }

    private static JsonNode fault(Response response) throws Exception {
        JsonNode body = JSON.readTree(response.asString());
        return JSON.readTree(body.get("error_message").asText());
    }
}
