package io.ironflow.deploy.stack;

import static org.hamcrest.Matchers.greaterThanOrEqualTo;
import static io.ironflow.deploy.stack.Matching.matching;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ironflow.deploy.testing.KafkaTestClient;
import io.ironflow.events.NodeEvent;
import io.ironflow.schemas.Topic;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * OneView dynamic allocation end to end on {@code ./ironflow up}: the API, conductor, oneview-allocator and the
 * OneView simulator as separate processes on real Kafka and PostgreSQL, the periodic checks every 2 s
 * ({@code IRONFLOW_ONEVIEW_PERIODIC_CHECK_INTERVAL=2s}). The test is the operator (Ironic's REST API) and a
 * OneView user (the simulator's admin API); one scenario of the spec per test, each on its own server hardware.
 * Runs on the {@link SharedStack}, which is started with those options; its nodes are the only oneview ones.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@ExtendWith(SharedStack.class)
@Order(4)
class OneViewStackTest {

    private static final Duration STATE = Duration.ofSeconds(60);
    /** Nodes deployed at once: 25 in the README's test command, 100 with {@code -Pscale}. */
    private static final int AT_ONCE = Integer.getInteger("stack.test.oneview-nodes", 12);
    private static final String TEMPLATE = "/rest/server-profile-templates/spt-bl460c-ironic";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private RunningStack stack;
    private String simulator;

    @BeforeAll
    void start(RunningStack shared) {
        stack = shared;
        simulator = "http://127.0.0.1:" + stack.ports.get("oneview-simulator");
    }

    private static String bay(int n) {
        return String.format("/rest/server-hardware/30303437-0000-4000-8000-%012d", n);
    }

    private JsonNode call(String method, String url, Object body, int expected) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(30))
                .header("X-OpenStack-Ironic-API-Version", "latest").header("Content-Type", "application/json")
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body)));
        HttpResponse<String> response = HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(expected, response.statusCode(), method + " " + url + ": " + response.body());
        return response.body().isEmpty() ? null : JSON.readTree(response.body());
    }

    /**
     * A change through the API, which answers 503 when no conductor answered within its own wait (a loaded
     * machine; the intent expired unapplied): sent again, as clients do ({@link ClientRetries}). Null when a retry
     * met a 4xx, which an earlier attempt applied just in time may explain: the caller waits for the effect.
     */
    private JsonNode change(String method, String url, Object body, int expected) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(30))
                .header("X-OpenStack-Ironic-API-Version", "latest").header("Content-Type", "application/json")
                .method(method, HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body))).build();
        ClientRetries.Sent sent = ClientRetries.send(HTTP, request);
        assertTrue(sent.answered(expected), method + " " + url + ": " + sent);
        if (sent.status() != expected) {
            return null;
        }
        return sent.response().body().isEmpty() ? null : JSON.readTree(sent.response().body());
    }

    /** Enrolls a node; when a retry left the outcome open, waits (bounded) for the node to exist under its name. */
    private String create(Map<String, Object> node) throws Exception {
        JsonNode created = change("POST", stack.api() + "/v1/nodes", node, 201);
        if (created != null) {
            return created.get("uuid").asText();
        }
        HttpRequest show = HttpRequest.newBuilder(URI.create(stack.api() + "/v1/nodes/" + node.get("name")))
                .timeout(Duration.ofSeconds(30)).header("X-OpenStack-Ironic-API-Version", "latest").build();
        HttpResponse<String> shown = Awaitility.await("the queued create of " + node.get("name") + " applied").atMost(STATE)
                .pollInterval(Duration.ofMillis(200)).until(() -> HTTP.send(show, HttpResponse.BodyHandlers.ofString()),
                        matching("200 OK", response -> response.statusCode() == 200));
        return JSON.readTree(shown.body()).get("uuid").asText();
    }

    private String enroll(int bay) throws Exception {
        String uuid = create(Map.of("driver", "oneview", "name", "ov-bay-" + bay,
                "driver_info", Map.of("server_hardware_uri", bay(bay)),
                "properties", Map.of("capabilities", "server_profile_template_uri:" + TEMPLATE)));
        verb(uuid, "manage", "manageable");
        verb(uuid, "provide", "available");
        return uuid;
    }

    private void verb(String uuid, String target, String state) throws Exception {
        change("PUT", stack.api() + "/v1/nodes/" + uuid + "/states/provision", Map.of("target", target), 202);
        await(uuid, n -> n.get("provision_state").asText().equals(state), target + " -> " + state);
    }

    private JsonNode node(String uuid) throws Exception {
        return call("GET", stack.api() + "/v1/nodes/" + uuid, null, 200);
    }

    private JsonNode await(String uuid, Predicate<JsonNode> until, String what) {
        return await(uuid, until, what, STATE);
    }

    /** The node once {@code until} holds for it; a wait that times out shows the node as it was last. */
    private JsonNode await(String uuid, Predicate<JsonNode> until, String what, Duration within) {
        return Awaitility.await(what).atMost(within).pollInterval(Duration.ofMillis(200)).until(() -> node(uuid), matching(what, until));
    }

    private String profileOn(int bay) throws Exception {
        return profileOn(bay(bay));
    }

    private String profileOn(String hardware) throws Exception {
        HttpResponse<String> login = HTTP.send(HttpRequest.newBuilder(URI.create(simulator + "/rest/login-sessions"))
                .header("X-API-Version", "800").header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"userName\":\"administrator\",\"password\":\"ironflow\"}")).build(),
                HttpResponse.BodyHandlers.ofString());
        String session = JSON.readTree(login.body()).get("sessionID").asText();
        HttpResponse<String> sh = HTTP.send(HttpRequest.newBuilder(URI.create(simulator + hardware))
                .header("X-API-Version", "800").header("auth", session).build(), HttpResponse.BodyHandlers.ofString());
        JsonNode uri = JSON.readTree(sh.body()).get("serverProfileUri");
        return uri == null || uri.isNull() ? null : uri.asText();
    }

    private void oneViewUserTakes(int bay) throws Exception {
        call("PUT", simulator + "/admin" + bay(bay).substring(5) + "/profile", Map.of("name", "OneView user's SAP HANA"), 200);
    }

    private void oneViewUserFrees(int bay) throws Exception {
        call("DELETE", simulator + "/admin" + bay(bay).substring(5) + "/profile", null, 204);
    }

    @Test
    void deployAppliesAProfileAndUndeploysCleaningRemovesIt() throws Exception {
        String uuid = enroll(1);
        assertNull(profileOn(1), "available holds no profile: cleaning applied one and removed it");
        verb(uuid, "active", "active");
        String applied = node(uuid).get("driver_info").get("applied_server_profile_uri").asText();
        assertEquals(applied, profileOn(1), "the deployed node's profile is Ironflow's");
        assertEquals("power on", node(uuid).get("power_state").asText());
        assertEquals("On", powerOf(1), "OneView powered the deployed server on: Ironflow's power state is OneView's");
        verb(uuid, "deleted", "available");
        assertNull(profileOn(1));
        assertFalse(node(uuid).get("driver_info").has("applied_server_profile_uri"));
        assertEquals("power off", node(uuid).get("power_state").asText());
        assertEquals("Off", powerOf(1));
        try (KafkaTestClient kafka = new KafkaTestClient(stack.kafka(), stack.registry())) {
            // Deploy waits for the profile, then for OneView's power on; the cleaning after tear-down waits for
            // OneView's power off, the profile (reused) and its removal.
            List<String> path = kafka.<NodeEvent>read(Topic.NODE_EVENTS.topicName(), STATE,
                            records -> records.stream().filter(r -> r.key().equals(uuid) && r.value().getDetail() == null).count() >= 24)
                    .stream().filter(r -> r.key().equals(uuid)).map(ConsumerRecord::value).filter(e -> e.getDetail() == null)
                    .map(NodeEvent::getToState).toList();
            assertEquals(List.of("enroll", "verifying", "manageable", "cleaning", "clean wait", "cleaning", "clean wait",
                    "cleaning", "available", "deploying", "wait call-back", "deploying", "wait call-back", "deploying", "active",
                    "deleting", "cleaning", "clean wait", "cleaning", "clean wait", "cleaning", "clean wait", "cleaning",
                    "available"), path.subList(0, 24));
        }
    }

    @Test
    void aOneViewUserTakesAnAvailableNodeAndGivesItBack() throws Exception {
        String uuid = enroll(2);
        oneViewUserTakes(2);
        JsonNode taken = await(uuid, n -> n.get("provision_state").asText().equals("manageable")
                && n.get("maintenance").asBoolean(), "taken by OneView");
        assertEquals("node in use by OneView", taken.get("maintenance_reason").asText());
        // Validation refuses it meanwhile, from what the allocator saw (the conductor does not call OneView).
        JsonNode refused = call("GET", stack.api() + "/v1/nodes/" + uuid + "/validate", null, 200);
        assertFalse(refused.get("power").get("result").asBoolean(), refused.toString());
        assertTrue(refused.get("power").get("reason").asText().contains("is in use by OneView")
                && refused.get("management").get("reason").asText().contains("OneView user's SAP HANA"), refused.toString());
        oneViewUserFrees(2);
        JsonNode back = await(uuid, n -> n.get("provision_state").asText().equals("available"), "freed by OneView");
        assertFalse(back.get("maintenance").asBoolean());
        assertNull(profileOn(2), "cleaned with a temporary profile, removed after");
        JsonNode valid = call("GET", stack.api() + "/v1/nodes/" + uuid + "/validate", null, 200);
        assertTrue(valid.get("power").get("result").asBoolean(), valid.toString());
    }

    @Test
    void aDeployThatRacesAOneViewUserFailsThenTheChecksParkAndReturnIt() throws Exception {
        String uuid = enroll(3);
        // The race, made certain: OneView answers every look at the hardware 3 s late until a OneView user has taken
        // it (the node is already deploying, so no periodic check sees it). Every look, not one: the periodic
        // checks read the hardware too, and a one-shot delay they used up let the deploy win the race under load.
        call("POST", simulator + "/admin/faults", Map.of("type", "latency", "millis", 3000, "method", "GET", "path", bay(3),
                "count", -1), 201);
        change("PUT", stack.api() + "/v1/nodes/" + uuid + "/states/provision", Map.of("target", "active"), 202);
        oneViewUserTakes(3);
        call("DELETE", simulator + "/admin/faults", null, 204);
        JsonNode failed = await(uuid, n -> n.get("provision_state").asText().equals("deploy failed"), "deploy racing OneView");
        assertTrue(failed.get("last_error").asText().contains("is in use by OneView")
                && failed.get("last_error").asText().contains("OneView user's SAP HANA"), failed.get("last_error").asText());
        // Undeploy's cleaning fails too; the 2 s check may park the node before a poll sees `clean failed`, so the
        // passage through it is read from the node's history, which keeps every transition.
        change("PUT", stack.api() + "/v1/nodes/" + uuid + "/states/provision", Map.of("target", "deleted"), 202);
        JsonNode parked = await(uuid, n -> n.get("provision_state").asText().equals("manageable") && n.get("maintenance").asBoolean(),
                "taken on clean failure");
        JsonNode history = call("GET", stack.api() + "/v1/nodes/" + uuid + "/history", null, 200);
        assertTrue(history.toString().contains("to clean failed"), "deleted -> clean failed: " + history);
        assertEquals("node in use by OneView", parked.get("maintenance_reason").asText());
        oneViewUserFrees(3);
        await(uuid, n -> n.get("provision_state").asText().equals("available") && !n.get("maintenance").asBoolean(), "freed");
        assertNull(profileOn(3));
    }

    @Test
    void aRetiredNodeIsNeverTouchedByTheChecks() throws Exception {
        String uuid = enroll(4);
        // A witness the checks read every pass and leave alone (enroll: observed, never acted on), on its own hardware.
        create(Map.of("driver", "oneview", "name", "ov-witness-6", "driver_info", Map.of("server_hardware_uri", bay(6)),
                "properties", Map.of("capabilities", "server_profile_template_uri:" + TEMPLATE)));
        verb(uuid, "manage", "manageable");
        change("PATCH", stack.api() + "/v1/nodes/" + uuid, List.of(Map.of("op", "replace", "path", "/retired", "value", true)), 200);
        change("PUT", stack.api() + "/v1/nodes/" + uuid + "/maintenance", Map.of("reason", "node in use by OneView"), 202);
        await(uuid, n -> n.get("retired").asBoolean() && n.get("maintenance").asBoolean(), "retired, in maintenance");
        // Two whole check passes after this point (the first read of the witness may end a pass begun before it):
        // a node that was not retired would be provided by the first.
        long since = lastCall();
        Awaitility.await("the periodic checks read the witness's hardware 3 times").atMost(STATE)
                .pollInterval(Duration.ofMillis(200)).until(() -> hardwareReads(bay(6), since), greaterThanOrEqualTo(3L));
        JsonNode node = node(uuid);
        assertEquals("manageable", node.get("provision_state").asText());
        assertTrue(node.get("maintenance").asBoolean());
    }

    @Test
    void manyNodesDeployedAtOnceGetOneProfileEachAndNoneIsLeftBehind() throws Exception {
        List<String> nodes = new java.util.ArrayList<>();
        for (int i = 1; i <= AT_ONCE; i++) {
            nodes.add(create(Map.of("driver", "oneview", "name", "ov-generated-" + i,
                    "driver_info", Map.of("server_hardware_uri", String.format("/rest/server-hardware/9e000000-0000-4000-8000-%012d", i)),
                    "properties", Map.of("capabilities", "server_profile_template_uri:" + TEMPLATE))));
        }
        all(nodes, "manage", "manageable");
        all(nodes, "provide", "available");
        long before = lastCall();
        long start = System.nanoTime();
        all(nodes, "active", "active");
        System.out.printf("ONEVIEW %d nodes deployed at once in %.1f s%n", AT_ONCE, (System.nanoTime() - start) / 1e9);
        java.util.Set<String> applied = new java.util.HashSet<>();
        for (String uuid : nodes) {
            applied.add(node(uuid).get("driver_info").get("applied_server_profile_uri").asText());
        }
        assertEquals(AT_ONCE, applied.size(), "one profile per node");
        JsonNode calls = call("GET", simulator + "/admin/calls?since=" + before, null, 200);
        long posts = 0;
        for (JsonNode c : calls) {
            posts += c.get("method").asText().equals("POST") && c.get("path").asText().equals("/rest/server-profiles") ? 1 : 0;
        }
        assertEquals(AT_ONCE, posts, "no profile applied twice");
        all(nodes, "deleted", "available");
        for (int i = 1; i <= AT_ONCE; i++) {
            assertNull(profileOn(String.format("/rest/server-hardware/9e000000-0000-4000-8000-%012d", i)), "none left behind");
        }
    }

    /** Sends {@code target} to every node at once, then waits (one deadline for all) until each rests in {@code state}. */
    private void all(List<String> nodes, String target, String state) throws Exception {
        for (String uuid : nodes) {
            change("PUT", stack.api() + "/v1/nodes/" + uuid + "/states/provision", Map.of("target", target), 202);
        }
        Instant deadline = Instant.now().plus(Duration.ofSeconds(240));
        for (String uuid : nodes) {
            Duration left = Duration.between(Instant.now(), deadline);
            await(uuid, n -> n.get("provision_state").asText().equals(state), target + ": node " + uuid + " " + state,
                    left.compareTo(Duration.ofSeconds(1)) > 0 ? left : Duration.ofSeconds(1));
        }
    }

    /** How many times OneView was asked for {@code hardware} (GET) after call {@code since}. */
    private long hardwareReads(String hardware, long since) throws Exception {
        long reads = 0;
        for (JsonNode c : call("GET", simulator + "/admin/calls?since=" + since, null, 200)) {
            reads += c.get("method").asText().equals("GET") && c.get("path").asText().equals(hardware) ? 1 : 0;
        }
        return reads;
    }

    private long lastCall() throws Exception {
        JsonNode calls = call("GET", simulator + "/admin/calls", null, 200);
        return calls.isEmpty() ? 0 : calls.get(calls.size() - 1).get("seq").asLong();
    }

    @Test
    void aFailedTaskFailsTheDeployWithOneViewsMessage() throws Exception {
        String uuid = enroll(5);
        call("POST", simulator + "/admin/faults", Map.of("type", "fail-task", "task", "Create",
                "message", "The server hardware's iLO is not responding."), 201);
        call("POST", simulator + "/admin/faults", Map.of("type", "expire-sessions"), 201);
        change("PUT", stack.api() + "/v1/nodes/" + uuid + "/states/provision", Map.of("target", "active"), 202);
        JsonNode failed = await(uuid, n -> n.get("provision_state").asText().equals("deploy failed"), "failed task");
        assertTrue(failed.get("last_error").asText().endsWith("The server hardware's iLO is not responding."),
                failed.get("last_error").asText());
        assertNull(profileOn(5));
    }

    private String powerOf(int bay) throws Exception {
        HttpResponse<String> login = HTTP.send(HttpRequest.newBuilder(URI.create(simulator + "/rest/login-sessions"))
                .header("X-API-Version", "800").header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"userName\":\"administrator\",\"password\":\"ironflow\"}")).build(),
                HttpResponse.BodyHandlers.ofString());
        String session = JSON.readTree(login.body()).get("sessionID").asText();
        return JSON.readTree(HTTP.send(HttpRequest.newBuilder(URI.create(simulator + bay(bay))).header("X-API-Version", "800")
                .header("auth", session).build(), HttpResponse.BodyHandlers.ofString()).body()).get("powerState").asText();
    }

    @Test
    void powerComesFromOneViewThroughTheAllocator() throws Exception {
        String uuid = enroll(7);
        assertEquals("Off", powerOf(7));
        change("PUT", stack.api() + "/v1/nodes/" + uuid + "/states/power", Map.of("target", "power on"), 202);
        await(uuid, n -> n.get("power_state").asText().equals("power on") && n.get("target_power_state").isNull(), "power on");
        assertEquals("On", powerOf(7), "OneView's server is on");
        call("POST", simulator + "/admin/faults", Map.of("type", "fail-task", "task", "Power off",
                "message", "The iLO of Encl1, bay 7 is not responding."), 201);
        change("PUT", stack.api() + "/v1/nodes/" + uuid + "/states/power", Map.of("target", "power off"), 202);
        JsonNode failed = await(uuid, n -> n.get("target_power_state").isNull() && !n.get("last_error").isNull(), "power off fails");
        assertEquals("Failed to change power state to 'power off' on node " + uuid + ": OneView: The iLO of Encl1, bay 7 is not responding.",
                failed.get("last_error").asText());
        assertEquals("power on", failed.get("power_state").asText());
        change("PUT", stack.api() + "/v1/nodes/" + uuid + "/states/power", Map.of("target", "power off"), 202);
        await(uuid, n -> n.get("power_state").asText().equals("power off"), "power off");
        assertEquals("Off", powerOf(7));
    }

    @Test
    void theMigrationCommandMovesAPreAllocatedInventoryToDynamicAllocation() throws Exception {
        String[] uuids = new String[2];
        for (int i = 0; i < 2; i++) {
            int bay = 8 + i;
            call("PUT", simulator + "/admin" + bay(bay).substring(5) + "/profile", Map.of("name", "pre-allocated bay " + bay), 200);
            uuids[i] = create(Map.of("driver", "oneview", "name", "ov-pre-" + bay,
                    "driver_info", Map.of("server_hardware_uri", bay(bay), "dynamic_allocation", false),
                    "properties", Map.of("capabilities", "server_profile_template_uri:" + TEMPLATE)));
            verb(uuids[i], "manage", "manageable");
            verb(uuids[i], "provide", "available");
        }
        verb(uuids[0], "active", "active");
        String active = profileOn(8);
        String idle = profileOn(9);
        String allocator = "http://127.0.0.1:" + stack.ports.get("oneview");

        IronflowRun plan = IronflowRun.of("oneview-migrate", "--dry-run", "--allocator", allocator);
        assertEquals(0, plan.code(), plan.printed());
        assertTrue(plan.out().contains(uuids[0]) && plan.out().contains("record applied_server_profile_uri")
                && plan.out().contains(uuids[1]) && plan.out().contains("remove the server profile")
                && plan.out().contains("planned"), plan.out());
        assertEquals(active, profileOn(8), "a dry run changes nothing");
        assertEquals(idle, profileOn(9));

        IronflowRun migration = IronflowRun.of("oneview-migrate", "--allocator", allocator);
        assertEquals(0, migration.code(), migration.printed());
        JsonNode migratedActive = await(uuids[0], n -> n.get("driver_info").path("dynamic_allocation").asBoolean(false), "active migrated");
        assertEquals(active, migratedActive.get("driver_info").get("applied_server_profile_uri").asText(), "its profile is now Ironflow's");
        assertEquals(active, profileOn(8));
        await(uuids[1], n -> n.get("driver_info").path("dynamic_allocation").asBoolean(false), "available migrated");
        assertNull(profileOn(9), "an idle node holds no profile under dynamic allocation");
        assertFalse(node(uuids[1]).get("driver_info").has("applied_server_profile_uri"));
    }
}
