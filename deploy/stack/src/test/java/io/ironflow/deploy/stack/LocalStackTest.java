package io.ironflow.deploy.stack;

import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ironflow.deploy.testing.KafkaTestClient;
import io.ironflow.deploy.testing.TestDirectories;
import io.ironflow.events.IntentResult;
import io.ironflow.events.NodeSnapshot;
import io.ironflow.schemas.Topic;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The first slice end to end, on the stack an operator starts with {@code ./ironflow up}: a POST on the API
 * becomes an intent on Kafka, the conductor persists the node and publishes its state through the outbox,
 * and the API answers from the result. Then the stack's own promises: one instance per data directory,
 * clear messages for taken ports, Ctrl-C leaves no process, a restart keeps the nodes. Runs on the
 * {@link SharedStack} (its nodes named local-*): the Ctrl-C test takes it over, stops it, starts it again and
 * shares the restarted stack.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@ExtendWith(SharedStack.class)
@org.junit.jupiter.api.Order(3)
class LocalStackTest {

    private static final Duration START = Duration.ofSeconds(240);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private Path dataDir;
    private Map<String, Integer> ports;
    private RunningStack stack;
    /** Whether this class owns {@link #stack} (took it over and has not shared it again): then it closes it. */
    private boolean owned;
    private String n1;

    @BeforeAll
    void up(RunningStack shared) {
        stack = shared;
        dataDir = shared.dataDir;
        ports = shared.ports;
    }

    @AfterAll
    void down() {
        if (owned) {
            stack.close();
            TestDirectories.deleteRecursively(dataDir);
        }
    }

    @Test
    @Order(1)
    void postCreatesAnEnrolledNodeInIronicsShape() throws Exception {
        HttpResponse<String> response = post("{\"driver\": \"fake-hardware\", \"name\": \"local-n1\"}");
        assertEquals(201, response.statusCode(), response.body());
        JsonNode node = JSON.readTree(response.body());
        n1 = node.get("uuid").asText();
        assertEquals(stack.api() + "/v1/nodes/" + n1, response.headers().firstValue("Location").orElseThrow());
        assertEquals("local-n1", node.get("name").asText());
        assertEquals("fake-hardware", node.get("driver").asText());
        assertEquals("enroll", node.get("provision_state").asText());
        assertTrue(node.get("target_provision_state").isNull());
        assertTrue(node.get("power_state").isNull());
        assertFalse(node.get("maintenance").asBoolean());
        assertFalse(node.get("retired").asBoolean());
        assertFalse(node.get("created_at").isNull());
        assertTrue(node.has("updated_at"));
        assertEquals(stack.api() + "/v1/nodes/" + n1, node.get("links").get(0).get("href").asText());
        assertEquals("self", node.get("links").get(0).get("rel").asText());
    }

    @Test
    @Order(2)
    void theNodeIsReadBackAndIsInPostgresKafkaAndTheRegistry() throws Exception {
        JsonNode byUuid = JSON.readTree(get("/v1/nodes/" + n1).body());
        JsonNode byName = JSON.readTree(get("/v1/nodes/local-n1").body());
        assertEquals(byUuid, byName);
        assertEquals("enroll", byUuid.get("provision_state").asText());
        JsonNode list = JSON.readTree(get("/v1/nodes").body());
        assertTrue(list.get("nodes").findValuesAsText("uuid").contains(n1), list.toString());

        try (var db = stack.database();
                var rs = db.createStatement().executeQuery("SELECT name, provision_state FROM nodes WHERE uuid = '" + n1 + "'")) {
            assertTrue(rs.next());
            assertEquals("local-n1", rs.getString(1));
            assertEquals("enroll", rs.getString(2));
        }

        try (KafkaTestClient kafka = new KafkaTestClient(stack.kafka(), stack.registry())) {
            List<ConsumerRecord<String, NodeSnapshot>> states = kafka.read(Topic.NODE_STATE.topicName(),
                    Duration.ofSeconds(20), records -> records.stream().anyMatch(r -> r.key().equals(n1)));
            NodeSnapshot snapshot = states.stream().filter(r -> r.key().equals(n1)).findFirst().orElseThrow().value();
            assertEquals("enroll", snapshot.getProvisionState());
            assertEquals("local-n1", snapshot.getName());
        }

        HttpResponse<String> schema = HTTP.send(HttpRequest.newBuilder(
                URI.create(stack.registry() + "/groups/default/artifacts/" + Topic.NODE_STATE.topicName() + "-value")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, schema.statusCode(), schema.body());
        assertTrue(schema.body().contains("NodeSnapshot"));
        HttpResponse<String> rule = HTTP.send(HttpRequest.newBuilder(
                URI.create(stack.registry() + "/admin/rules/COMPATIBILITY")).build(), HttpResponse.BodyHandlers.ofString());
        assertTrue(rule.body().contains("BACKWARD"), rule.body());
    }

    /**
     * An operator's write to a node named by its uuid is not read first by the API (NodeCommands): the conductor
     * tells that there is no such node, as the API would have, in Ironic's shape, on every command, and nothing
     * is written.
     */
    @Test
    @Order(3)
    void everyWriteToAnUnknownUuidIsTheConductors404() throws Exception {
        long before = nodeCount();
        String uuid = java.util.UUID.randomUUID().toString();
        String[][] writes = {
                {"PUT", "/states/provision", "{\"target\": \"manage\"}"},
                {"PUT", "/states/provision", "{\"target\": \"deleted\"}"},
                {"PUT", "/states/power", "{\"target\": \"power on\"}"},
                {"PUT", "/states/boot_mode", "{\"target\": \"uefi\"}"},
                {"PUT", "/maintenance", "{\"reason\": \"r\"}"},
                {"DELETE", "/maintenance", null},
                {"PATCH", "", "[{\"op\": \"replace\", \"path\": \"/extra/a\", \"value\": 1}]"},
                {"PUT", "/traits/CUSTOM_A", null},
                {"DELETE", "/traits", null},
                {"POST", "/vifs", "{\"id\": \"vif-1\"}"},
                {"DELETE", "/vifs/vif-1", null},
                {"GET", "/validate", null},
                {"DELETE", "", null}};
        for (String[] write : writes) {
            HttpResponse<String> response = HTTP.send(api("/v1/nodes/" + uuid + write[1])
                    .header("Content-Type", "application/json")
                    .method(write[0], write[2] == null ? HttpRequest.BodyPublishers.noBody()
                            : HttpRequest.BodyPublishers.ofString(write[2])).build(), HttpResponse.BodyHandlers.ofString());
            assertFault(response, 404);
            assertTrue(response.body().contains("Node " + uuid + " could not be found."), write[0] + " " + write[1]
                    + ": " + response.body());
        }
        assertEquals(before, nodeCount());
    }

    @Test
    @Order(3)
    void badInputIsRefusedInIronicsShapeAndChangesNothing() throws Exception {
        long before = nodeCount();
        assertFault(post("{\"driver\": "), 400);
        assertFault(post("{\"name\": \"no-driver\"}"), 400);
        assertFault(post("{\"driver\": \"no-such-driver\", \"name\": \"local-n2\"}"), 400);
        HttpResponse<String> duplicate = post("{\"driver\": \"fake-hardware\", \"name\": \"local-n1\"}");
        assertFault(duplicate, 409);
        assertTrue(duplicate.body().contains("A node with name local-n1 already exists."), duplicate.body());
        assertFault(get("/v1/nodes/no-such-node"), 404);
        assertEquals(before, nodeCount());
    }

    @Test
    @Order(3)
    void anOperatorDrivesTheNodeThroughTheVerbsOverRest() throws Exception {
        HttpResponse<String> created = post("{\"driver\": \"fake-hardware\", \"name\": \"local-verbs\"}");
        assertEquals(201, created.statusCode(), created.body());
        for (String[] step : new String[][] {{"manage", "manageable"}, {"provide", "available"}, {"active", "active"},
                {"deleted", "available"}}) {
            HttpResponse<String> accepted = put("/v1/nodes/local-verbs/states/provision", "{\"target\": \"" + step[0] + "\"}");
            assertEquals(202, accepted.statusCode(), step[0] + ": " + accepted.body());
            assertTrue(accepted.headers().firstValue("Location").orElseThrow().endsWith("/states"));
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            JsonNode states;
            do {
                states = JSON.readTree(get("/v1/nodes/local-verbs/states").body());
                assertTrue(System.nanoTime() < deadline, "stuck: " + states);
            } while (!(step[1].equals(states.get("provision_state").asText()) && states.get("target_provision_state").isNull()));
        }
        assertFault(put("/v1/nodes/local-verbs/states/provision", "{\"target\": \"unrescue\"}"), 400);
        assertEquals(202, put("/v1/nodes/local-verbs/states/power", "{\"target\": \"power off\"}").statusCode());
        assertEquals("power off", JSON.readTree(get("/v1/nodes/local-verbs").body()).get("power_state").asText());
        HttpResponse<String> deleted = HTTP.send(api("/v1/nodes/local-verbs").DELETE().build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(204, deleted.statusCode(), deleted.body());
        assertFault(get("/v1/nodes/local-verbs"), 404);
    }

    @Test
    @Order(3)
    void driversValidationAndCleanStepsComeFromTheRealConductor() throws Exception {
        JsonNode drivers = JSON.readTree(get("/v1/drivers").body()).get("drivers");
        assertEquals("fake-hardware", drivers.get(0).get("name").asText(), drivers.toString());
        assertEquals(1, drivers.get(0).get("hosts").size(), "the conductor registered it and heartbeats");
        assertEquals("fake", JSON.readTree(get("/v1/drivers/fake-hardware").body()).get("default_power_interface").asText());
        assertTrue(JSON.readTree(get("/v1/drivers/fake-hardware/properties").body()).has("fake_agent_steps"));

        HttpResponse<String> created = post("{\"driver\": \"fake-hardware\", \"name\": \"local-agent\","
                + " \"driver_info\": {\"fake_agent_steps\": true}}");
        assertEquals(201, created.statusCode(), created.body());
        JsonNode agent = JSON.readTree(get("/v1/nodes/local-agent").body());
        assertEquals("fake", agent.get("power_interface").asText(), "a node shows its driver's default interfaces");
        assertEquals("no-console", agent.get("console_interface").asText());
        HttpResponse<String> unknown = get("/v1/nodes/local-agent/cleaning/steps");
        assertEquals(202, unknown.statusCode(), unknown.body());
        assertEquals("-1", unknown.headers().firstValue("Retry-Request-After").orElseThrow());
        JsonNode valid = JSON.readTree(get("/v1/nodes/local-agent/validate").body());
        assertTrue(valid.at("/power/result").asBoolean(), valid.toString());
        assertEquals("not supported", valid.at("/console/reason").asText());

        for (String[] step : new String[][] {{"manage", "manageable"}, {"provide", "available"}}) {
            assertEquals(202, put("/v1/nodes/local-agent/states/provision", "{\"target\": \"" + step[0] + "\"}").statusCode());
            await(step[0] + " -> " + step[1]).atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100))
                    .until(() -> JSON.readTree(get("/v1/nodes/local-agent").body()).get("provision_state").asText(), equalTo(step[1]));
        }
        HttpResponse<String> cached = get("/v1/nodes/local-agent/cleaning/steps?min_priority=1");
        assertEquals(200, cached.statusCode(), cached.body());
        JsonNode steps = JSON.readTree(cached.body());
        assertEquals("erase_devices_metadata", steps.get(0).get("step").asText(), steps.toString());
        assertEquals(2, steps.size());
    }

    /** A request as today's clients send it: asking for the newest API microversion. */
    private HttpRequest.Builder api(String path) {
        return HttpRequest.newBuilder(URI.create(stack.api() + path)).header("X-OpenStack-Ironic-API-Version", "latest");
    }

    private HttpResponse<String> put(String path, String body) throws Exception {
        return HTTP.send(api(path).header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    @Order(4)
    void aConductorThatDoesNotAnswerGets503AndTheExpiredIntentChangesNothingWhenItComesBack() throws Exception {
        ProcessHandle conductor = stack.service("conductor-service");
        RunningStack.signal("STOP", conductor.pid());
        String uuid = UUID.randomUUID().toString();
        String body = "{\"driver\": \"fake-hardware\", \"name\": \"local-late\", \"uuid\": \"" + uuid + "\"}";
        HttpResponse<String> response;
        try {
            response = post(body);
        } finally {
            RunningStack.signal("CONT", conductor.pid());
        }
        assertFault(response, 503);
        try (KafkaTestClient kafka = new KafkaTestClient(stack.kafka(), stack.registry())) {
            // the conductor takes the intent only now, past its notAfter: refused, so the client's 503 was true
            List<ConsumerRecord<String, IntentResult>> results = kafka.read(Topic.INTENT_RESULTS.topicName(),
                    Duration.ofSeconds(60), records -> records.stream().anyMatch(r -> r.key().equals(uuid)));
            IntentResult result = results.stream().filter(r -> r.key().equals(uuid)).findFirst().orElseThrow().value();
            assertEquals(503, result.getCode(), result.getErrorMessage());
            assertTrue(result.getErrorMessage().contains("expired"), result.getErrorMessage());
        }
        assertEquals(404, get("/v1/nodes/" + uuid).statusCode(), "the expired create made no node");
        ClientRetries.Sent retried = ClientRetries.send(HTTP, api("/v1/nodes").header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build());
        assertEquals(201, retried.status(), "the client's retry creates it: " + retried);
        assertEquals("local-late", JSON.readTree(get("/v1/nodes/" + uuid).body()).get("name").asText());
    }

    @Test
    @Order(5)
    void aSecondUpOrATakenPortGetsAOneLineMessage() throws Exception {
        RunningStack second = RunningStack.launch(dataDir, RunningStack.freePorts(), Map.of());
        assertEquals(1, second.awaitExit(Duration.ofSeconds(60)));
        assertTrue(String.join("\n", second.output).contains("already running with data directory"), second.output.toString());

        Map<String, Integer> clash = RunningStack.freePorts();
        clash.put("api", ports.get("api"));
        Path otherDir = dataDir.resolveSibling(dataDir.getFileName() + "-other");
        try {
            RunningStack third = RunningStack.launch(otherDir, clash, Map.of());
            assertEquals(1, third.awaitExit(Duration.ofSeconds(60)));
            assertTrue(String.join("\n", third.output).contains("port " + ports.get("api") + " (api-service) is already in use"),
                    third.output.toString());
        } finally {
            TestDirectories.deleteRecursively(otherDir);
        }
    }

    @Test
    @Order(6)
    void ctrlCStopsEveryProcessAndARestartKeepsTheNodes() throws Exception {
        stack = SharedStack.takeOver();
        owned = true;
        List<ProcessHandle> children = stack.launcher.descendants().toList();
        assertTrue(children.size() >= 5, "registry, PostgreSQL and four services: " + children);
        assertEquals(130, stack.interrupt(Duration.ofSeconds(90)), "the JVM's exit code after SIGINT");
        for (ProcessHandle child : children) {
            child.onExit().get(30, TimeUnit.SECONDS);
            assertFalse(child.isAlive(), "left behind: " + child.info());
        }
        assertTrue(String.join("\n", stack.output).contains("Ironflow stopped."));

        stack = SharedStack.launch(dataDir, ports).awaitUp(START);
        HttpResponse<String> again = get("/v1/nodes/local-n1");
        assertEquals(200, again.statusCode(), again.body());
        assertEquals(n1, JSON.readTree(again.body()).get("uuid").asText());
        SharedStack.share(stack);
        owned = false;
        assertEquals(List.of(), errorsWhileStarting(), "ERROR lines logged by a service while it started (first start and restart)");
    }

    /**
     * The ERROR lines each service logged between its banner and its "started in" line: an operator reads a start-up
     * ERROR as a broken service (scheduled tasks that run before the messaging channels are wired logged SRMSG00019).
     */
    private List<String> errorsWhileStarting() throws Exception {
        List<String> errors = new ArrayList<>();
        try (Stream<Path> logs = Files.list(dataDir.resolve("logs"))) {
            for (Path log : logs.filter(l -> l.toString().endsWith(".log")).toList()) {
                boolean starting = false;
                for (String line : Files.readAllLines(log, StandardCharsets.UTF_8)) {
                    if (line.startsWith("__  ____  __  _____")) {
                        starting = true; // Quarkus's banner: a JVM starts
                    } else if (line.contains(" started in ")) {
                        starting = false;
                    } else if (starting && line.contains(" ERROR ")) {
                        errors.add(log.getFileName() + ": " + line);
                    }
                }
            }
        }
        return errors;
    }

    private long nodeCount() throws Exception {
        try (var db = stack.database();
                var rs = db.createStatement().executeQuery("SELECT count(*) FROM nodes")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private void assertFault(HttpResponse<String> response, int status) throws Exception {
        assertEquals(status, response.statusCode(), response.body());
        JsonNode fault = JSON.readTree(JSON.readTree(response.body()).get("error_message").asText());
        assertEquals(status < 500 ? "Client" : "Server", fault.get("faultcode").asText());
        assertNotNull(fault.get("faultstring").asText());
        assertTrue(fault.get("debuginfo").isNull());
    }

    private HttpResponse<String> post(String body) throws Exception {
        return HTTP.send(api("/v1/nodes")
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> get(String path) throws Exception {
        return HTTP.send(api(path).build(), HttpResponse.BodyHandlers.ofString());
    }
}
