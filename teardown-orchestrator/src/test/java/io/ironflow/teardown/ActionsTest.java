package io.ironflow.teardown;

import static io.ironflow.teardown.KubeFixtures.k8s;
import static io.ironflow.teardown.KubeFixtures.node;
import static io.ironflow.teardown.KubeFixtures.pod;
import static io.ironflow.teardown.NodeStepsTest.airship;
import static io.restassured.RestAssured.given;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ironflow.deploy.testing.IronflowTestInfrastructure;
import io.ironflow.deploy.testing.KafkaTestClient;
import io.ironflow.events.NodeSnapshot;
import io.ironflow.events.TeardownStepEvent;
import io.ironflow.teardown.actions.ActionStore;
import io.ironflow.teardown.actions.OutboxRelay;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.DecoderFactory;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Shipyard's action API end to end: configdocs and a deploy_site give the site a successful-site-action
 * revision, then redeploy_server tears an active fake-hardware node down through the real conductor (over the
 * real API and Kafka), the Kubernetes stand-in and a real etcd; every step on ironflow.teardown-events.
 */
@QuarkusTest
@QuarkusTestResource(IronflowTestInfrastructure.class)
@QuarkusTestResource(TeardownPeers.class)
class ActionsTest {

    @Inject
    OutboxRelay relay;

    @Inject
    ActionStore store;

    @Inject
    io.ironflow.teardown.actions.ActionLeases leases;

    static final String SITE = """
            schema: promenade/EtcdClusters/v1
            metadata: {name: kubernetes-etcd}
            data: {members: [node-0, node-1, node-2], minimum: 2}
            """;

    @BeforeAll
    static void services() {
        IronflowServices.startOnce();
    }

    static RequestSpecification ironic() {
        return given().baseUri("http://127.0.0.1").port(TeardownPeers.apiPort()).contentType(ContentType.JSON)
                .header("X-OpenStack-Ironic-API-Version", "latest");
    }

    static JsonPath ironflowNode(String name) {
        return ironic().get("/v1/nodes/" + name).then().statusCode(200).extract().jsonPath();
    }

    /** An active fake-hardware node, as an operator gets one: create, manage, provide, deploy. */
    static void activeNode(String name) {
        activeNode(name, "{}");
    }

    /** An active fake-hardware node with this driver_info (its fake_disks, say). */
    static void activeNode(String name, String driverInfo) {
        ironic().body("{\"driver\":\"fake-hardware\",\"name\":\"" + name + "\",\"driver_info\":" + driverInfo + "}")
                .post("/v1/nodes").then().statusCode(201);
        for (String[] verb : new String[][] {{"manage", "manageable"}, {"provide", "available"}, {"active", "active"}}) {
            ironic().body("{\"target\":\"" + verb[0] + "\"}").put("/v1/nodes/" + name + "/states/provision").then().statusCode(202);
            await().atMost(Duration.ofSeconds(60)).until(() -> verb[1].equals(ironflowNode(name).getString("provision_state")));
        }
    }

    /** Per disk, how often the fake hardware fully erased it (from its record in the node's row). */
    static Map<String, Integer> diskErasures(String name) {
        String json = sql("SELECT driver_internal_info -> 'fake_hardware' -> 'disk_erasures' FROM public.nodes WHERE name = ?", name);
        try {
            return json == null ? Map.of() : new com.fasterxml.jackson.databind.ObjectMapper().readValue(json,
                    new com.fasterxml.jackson.core.type.TypeReference<Map<String, Integer>>() { });
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * A connection to the test's PostgreSQL: as the orchestrator's own role for its schema, or, for {@code nodes}
     * (the conductor's node table, which that role may not touch), as the owner the conductor works with.
     */
    static java.sql.Connection database(boolean nodes) throws java.sql.SQLException {
        org.eclipse.microprofile.config.Config config = ConfigProvider.getConfig();
        String url = config.getValue("quarkus.datasource.jdbc.url", String.class);
        return nodes
                ? java.sql.DriverManager.getConnection(url, "ironflow", config.getValue("ironflow.db.owner-password", String.class))
                : java.sql.DriverManager.getConnection(url, config.getValue("quarkus.datasource.username", String.class),
                        config.getValue("quarkus.datasource.password", String.class));
    }

    /** One text value from the test's PostgreSQL (the first column of the first row, or null). */
    static String sql(String query, Object... args) {
        try (java.sql.Connection c = database(query.contains("public."));
                java.sql.PreparedStatement s = c.prepareStatement(query)) {
            for (int i = 0; i < args.length; i++) {
                s.setObject(i + 1, args[i]);
            }
            try (java.sql.ResultSet rs = s.executeQuery()) {
                return rs.next() ? rs.getString(1) : null;
            }
        } catch (java.sql.SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** What the fake hardware recorded (the API keeps driver_internal_info private; the test reads the row). */
    static int erasedDevices(String name) {
        try (java.sql.Connection c = database(true);
                java.sql.PreparedStatement s = c.prepareStatement(
                        "SELECT (driver_internal_info -> 'fake_hardware' ->> 'erased_devices')::int FROM public.nodes WHERE name = ?")) {
            s.setString(1, name);
            try (java.sql.ResultSet rs = s.executeQuery()) {
                rs.next();
                return rs.getInt(1);
            }
        } catch (java.sql.SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * A TeardownStepEvent read generically (the test's and Kafka's class loaders differ for the generated class):
     * Avro binary after the registry's frame, a magic byte and a 4-byte schema id.
     */
    static GenericRecord decode(ConsumerRecord<String, byte[]> record) {
        byte[] bytes = record.value();
        int offset = 5;
        try {
            return new GenericDatumReader<GenericRecord>(TeardownStepEvent.getClassSchema())
                    .read(null, DecoderFactory.get().binaryDecoder(bytes, offset, bytes.length - offset, null));
        } catch (java.io.IOException | RuntimeException e) {
            StringBuilder hex = new StringBuilder();
            for (int i = 0; i < Math.min(24, bytes.length); i++) {
                hex.append(String.format("%02x ", bytes[i]));
            }
            java.util.List<String> headers = new java.util.ArrayList<>();
            record.headers().forEach(h -> headers.add(h.key()));
            throw new IllegalStateException("cannot decode " + hex + " headers " + headers, e);
        }
    }

    static Response createAction(String body) {
        return given().contentType(ContentType.JSON).body(body).post("/api/v1.0/actions");
    }

    static String awaitEnd(String id) {
        await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(500)).until(() -> {
            String lifecycle = given().get("/api/v1.0/actions/" + id).then().extract().path("action_lifecycle");
            return "Complete".equals(lifecycle) || "Failed".equals(lifecycle);
        });
        return given().get("/api/v1.0/actions/" + id).then().extract().path("action_lifecycle");
    }

    /** A deploy_site beside an unfinished action is refused (Shipyard's concurrency check): earlier tests' must end. */
    static void awaitNoActionUnfinished() {
        await("every earlier test's action ended").atMost(Duration.ofSeconds(60)).until(() -> "0".equals(
                sql("SELECT count(*) FROM teardown.actions WHERE lifecycle IN ('Pending', 'Processing', 'Paused')")));
    }

    static void siteActionSucceeded() {
        awaitNoActionUnfinished();
        given().body(SITE).post("/api/v1.0/configdocs/site").then().statusCode(201);
        given().post("/api/v1.0/commitconfigdocs").then().statusCode(200);
        String id = createAction("{\"name\":\"deploy_site\",\"parameters\":{\"allow-intermediate-commits\":true}}")
                .then().statusCode(201).extract().path("id");
        assertEquals("Complete", awaitEnd(id));
    }

    @Test
    void badRequestsAreRefusedAndChangeNothing() {
        airship(createAction("{\"name\":\"reboot_everything\"}").then(), 400, "BadRequest");
        airship(createAction("not json").then(), 400, "BadRequest");
        airship(createAction("{\"name\":\"redeploy_server\",\"parameters\":{}}").then(), 400, "BadRequest");
        airship(createAction("{\"name\":\"redeploy_server\",\"parameters\":{\"target_nodes\":[\"x\"],\"target-revision\":\"latest\"}}").then(),
                400, "BadRequest");
        airship(createAction("{\"name\":\"redeploy_server\",\"parameters\":{\"target_nodes\":[\"x\"],\"preserve-local-storage\":\"maybe\"}}").then(),
                400, "BadRequest");
        for (String name : List.of("Node-1", "node_1", "a/b", "../x", "-x", "x".repeat(254), "x".repeat(900_000))) {
            airship(createAction("{\"name\":\"redeploy_server\",\"parameters\":{\"target_nodes\":[\"" + name + "\"]}}").then(),
                    400, "BadRequest");
        }
        for (String timeouts : List.of("\"drain-node-timeout\":\"soon\"", "\"etcd-ready-timeout\":1.5", "\"clear-labels-timeout\":0",
                "\"remove-etcd-timeout\":[30]", "\"drain-node-timeout\":60,\"drain-node-grace-period\":60",
                "\"drain-node-grace-period\":3600")) {
            airship(createAction("{\"name\":\"redeploy_server\",\"parameters\":{\"target_nodes\":[\"x\"]," + timeouts + "}}").then(),
                    400, "BadRequest");
        }
        // An unknown key is refused, named: the misspelt preserve_local_storage would have wiped every disk.
        airship(createAction("{\"name\":\"redeploy_server\",\"parameters\":{\"target_nodes\":[\"x\"],\"preserve_local_storage\":true}}")
                .then().body("message", org.hamcrest.Matchers.containsString("preserve_local_storage")), 400, "BadRequest");
        // deploy_site takes allow-intermediate-commits only: it works on no node
        airship(createAction("{\"name\":\"deploy_site\",\"parameters\":{\"target_nodes\":[\"x\"],\"allow-intermediate-commits\":true}}")
                .then().body("message", org.hamcrest.Matchers.containsString("target_nodes")), 400, "BadRequest");
        assertEquals(List.of(), given().get("/api/v1.0/actions").then().extract().<List<Object>>path(
                "findAll { it.parameters.target_nodes == ['x'] }"), "a refused action is not stored");
        airship(given().get("/api/v1.0/actions/01J0000000000000000000000Z").then(), 404, "NotFound");
        airship(given().get("/api/v1.0/actions/01J0000000000000000000000Z/steps/destroy").then(), 404, "NotFound");
    }

    /**
     * deploy_site's target_nodes are checked when the action is created (400, as redeploy_server's), and a run never
     * parses them again: an action stored with a bad one (by an older version) ends instead of failing at every
     * rescan for ever, stop included, and a valid name merely found in its parameters gets no events: deploy_site
     * works on no node.
     */
    @Test
    void deploySiteTargetNodesAreCheckedAndARunNeverWedgesOnThem() {
        airship(createAction("{\"name\":\"deploy_site\",\"parameters\":{\"target_nodes\":\"NOT A NODE!\","
                + "\"allow-intermediate-commits\":true}}").then(), 400, "BadRequest");
        String stored = "WITH a AS (INSERT INTO teardown.actions (id, name, parameters, requested_by, created_at, lifecycle, updated_at)"
                + " VALUES (?, 'deploy_site', ?, 'older', now(), 'Pending', now()) RETURNING id)"
                + " INSERT INTO teardown.action_steps (action_id, seq, node, step, status)"
                + " SELECT id, 0, NULL, 'validate-site-design', 'pending' FROM a RETURNING action_id";
        String wedged = io.ironflow.teardown.actions.Ulid.next();
        sql(stored, wedged, "{\"target_nodes\":\"NOT A NODE!\"}");
        String bystander = io.ironflow.teardown.actions.Ulid.next();
        sql(stored, bystander, "{\"target_nodes\":[\"bystander-1\"]}");
        // Stored without a pinned revision, it validates the one successful-site-action names, if an earlier test
        // made one (Complete), else fails on the missing revision: either way the rescan's run ends it.
        assertTrue(Set.of("Complete", "Failed").contains(awaitEnd(wedged)));
        assertTrue(Set.of("Complete", "Failed").contains(awaitEnd(bystander)));
        given().get("/api/v1.0/actions/" + wedged).then().body("steps[0].state", org.hamcrest.Matchers.oneOf("success", "failed"));
        await().atMost(Duration.ofSeconds(20)).until(() -> "0".equals(sql("SELECT count(*) FROM teardown.outbox WHERE action_id IN (?, ?)",
                wedged, bystander)));
        try (KafkaTestClient kafka = KafkaTestClient.ofTestConfig()) {
            assertEquals(List.of(), kafka.readAllRaw("ironflow.teardown-events", Duration.ofSeconds(30)).stream().map(ActionsTest::decode)
                    .filter(e -> Set.of(wedged, bystander).contains(e.get("actionId").toString()))
                    .map(e -> e.get("nodeName") + ":" + e.get("status")).toList(), "no events for nodes the action does not work on");
        }
    }

    /**
     * redeploy_server pins the revision its target-revision names when it is created (Shipyard's committed_rev_id): a
     * commit afterwards does not move it. A caller's own {@code revision} is refused: it would have skipped the
     * preflight's check and put any number in the design reference and the events.
     */
    @Test
    void redeployServerPinsItsRevisionAtCreationAndRefusesOneFromTheCaller() {
        airship(createAction("{\"name\":\"redeploy_server\",\"parameters\":{\"target_nodes\":[\"pinned-1\"],\"revision\":999}}").then(),
                400, "BadRequest");
        given().body("pinned: 1\n").post("/api/v1.0/configdocs/pinned").then().statusCode(201);
        int committed = Integer.parseInt(given().post("/api/v1.0/commitconfigdocs").then().statusCode(200).extract()
                .<String>path("details.messageList[0].message"));
        String id = createAction("{\"name\":\"redeploy_server\",\"parameters\":{\"target_nodes\":[\"pinned-1\"],"
                + "\"target-revision\":\"committed\"}}").then().statusCode(201).body("parameters.revision", equalTo(committed))
                .extract().path("id");
        given().body("pinned: 2\n").post("/api/v1.0/configdocs/pinned").then().statusCode(201);
        given().post("/api/v1.0/commitconfigdocs").then().statusCode(200);
        assertEquals("Failed", awaitEnd(id), "pinned-1 is unknown: its preflight fails");
        given().get("/api/v1.0/actions/" + id).then().body("parameters.revision", equalTo(committed));
    }

    /**
     * The action's user is the authenticated caller (here noauth's principal, "anonymous", which only the principal
     * HttpAuthentication left on the request gives: without one it would be "unknown"), not what X-User-Name claims; a
     * context marker that is not a UUID is replaced by a new one, a UUID is kept.
     */
    @Test
    void theUserIsTheAuthenticatedCallerAndTheContextMarkerAUuid() {
        String body = "{\"name\":\"redeploy_server\",\"parameters\":{\"target_nodes\":[\"marked-1\"],\"target-revision\":\"committed\"}}";
        String uuid = "5a2b8a4e-3c1d-4f6e-9a7b-1c2d3e4f5a6b";
        String marked = given().contentType(ContentType.JSON).header("X-User-Name", "mallory").header("X-Context-Marker", uuid).body(body)
                .post("/api/v1.0/actions").then().statusCode(201).body("user", equalTo("anonymous")).body("context_marker", equalTo(uuid))
                .extract().path("id");
        Response other = given().contentType(ContentType.JSON).header("X-Context-Marker", "not a uuid; DROP TABLE").body(body
                .replace("marked-1", "marked-2")).post("/api/v1.0/actions");
        String replaced = other.then().statusCode(201).extract().path("context_marker");
        assertEquals(replaced, java.util.UUID.fromString(replaced).toString(), "a new UUID, not " + replaced);
        // unknown nodes: both fail their preflight, and end before the next test's deploy_site would conflict with them
        assertEquals("Failed", awaitEnd(marked));
        assertEquals("Failed", awaitEnd(other.path("id")));
    }

    @Test
    void anActionForAnUnknownNodeFailsItsPreflight() {
        String id = createAction("{\"name\":\"redeploy_server\",\"parameters\":{\"target_nodes\":[\"ghost\"],\"target-revision\":\"committed\"}}")
                .then().statusCode(201).extract().path("id");
        assertEquals("Failed", awaitEnd(id));
        given().get("/api/v1.0/actions/" + id).then().body("steps[0].state", equalTo("failed"))
                .body("steps[1].state", equalTo("skipped"));
    }

    @Test
    void redeployServerTearsTheNodeDownThroughEveryStep() {
        siteActionSucceeded();
        activeNode("node-1");
        String uuid = ironflowNode("node-1").getString("uuid");
        int erasedBefore = erasedDevices("node-1");
        node("node-1");
        pod("apps", "web-node-1", "node-1", Map.of("app", "web"), "ReplicaSet", "web");

        Response created = createAction("{\"name\":\"redeploy_server\",\"parameters\":{\"target_nodes\":[\"node-1\"]}}");
        created.then().statusCode(201).header("Location", org.hamcrest.Matchers.endsWith("/api/v1.0/actions/" + created.path("id")))
                .body("name", equalTo("redeploy_server")).body("action_lifecycle", org.hamcrest.Matchers.oneOf("Pending", "Processing"))
                .body("id", org.hamcrest.Matchers.matchesPattern("[0-9A-HJKMNP-TV-Z]{26}"));
        String id = created.path("id");
        airship(createAction("{\"name\":\"redeploy_server\",\"parameters\":{\"target_nodes\":[\"node-1\"]}}").then(), 409, "Conflict");

        assertEquals("Complete", awaitEnd(id), () -> given().get("/api/v1.0/actions/" + id).asString());
        List<String> states = given().get("/api/v1.0/actions/" + id).then().extract().path("steps.state");
        assertEquals(List.of("success", "success", "success", "success"), states); // what Shipyard's CLI counts as done
        given().get("/api/v1.0/actions/" + id).then().body("dag_id", equalTo("redeploy_server")).body("dag_status", equalTo("success"))
                .body("dag_execution_date", equalTo(created.path("timestamp"))).body("datetime", equalTo(created.path("timestamp")));
        assertEquals("Pending".equals(created.path("action_lifecycle")) ? "queued" : "running", created.path("dag_status"));
        // each step by its url, as Shipyard's describe step reads a task
        String destroy = given().get("/api/v1.0/actions/" + id).then().extract().path("steps.find { it.id == 'destroy' }.url");
        assertEquals("/actions/" + id + "/steps/destroy", destroy);
        given().get("/api/v1.0" + destroy).then().statusCode(200).body("task_id", equalTo("destroy"))
                .body("dag_id", equalTo("redeploy_server")).body("state", equalTo("success")).body("index", equalTo(3))
                .body("start_date", org.hamcrest.Matchers.notNullValue()).body("end_date", org.hamcrest.Matchers.notNullValue())
                .body("duration", org.hamcrest.Matchers.greaterThanOrEqualTo(0f))
                .body("nodes.node", equalTo(List.of("node-1"))).body("nodes.state", equalTo(List.of("success")));
        airship(given().get("/api/v1.0/actions/" + id + "/steps/reboot").then(), 404, "NotFound");

        JsonPath node = ironflowNode("node-1");
        assertEquals("available", node.getString("provision_state"));
        assertEquals("power off", node.getString("power_state"));
        assertEquals(erasedBefore + 1, erasedDevices("node-1"), "every disk erased once more");
        assertNull(k8s().nodes().withName("node-1").get(), "the Kubernetes Node is gone");
        given().queryParam("design_ref", "deckhand+http://x/revisions/1/rendered-documents").get("/api/v1.0/etcd-cluster-health-statuses")
                .then().body("details.messageList.name", org.hamcrest.Matchers.containsInAnyOrder("node-0", "node-2"));

        try (KafkaTestClient kafka = KafkaTestClient.ofTestConfig()) {
            List<GenericRecord> mine = kafka.readRaw("ironflow.teardown-events", Duration.ofSeconds(30),
                    read -> read.stream().map(ActionsTest::decode).filter(e -> e.get("actionId").toString().equals(id)).count() >= 8)
                    .stream().filter(r -> decode(r).get("actionId").toString().equals(id))
                    .peek(r -> assertEquals(uuid, r.key(), "keyed by the node's uuid")).map(ActionsTest::decode).toList();
            Set<String> announced = mine.stream().map(e -> e.get("step") + ":" + e.get("status")).collect(Collectors.toSet());
            for (String step : List.of("preflight", "decommission", "destroy", "remove-from-cluster")) {
                assertTrue(announced.contains(step + ":started") && announced.contains(step + ":succeeded"), step + " in " + announced);
            }
        }
        String metrics = given().get("/q/metrics").asString();
        for (String step : List.of("preflight", "decommission", "destroy", "remove-from-cluster")) {
            assertTrue(metrics.contains("ironflow_teardown_step_duration_seconds_count{result=\"succeeded\",step=\"" + step + "\"}"),
                    "no duration of " + step + " on /q/metrics");
        }
        TeardownPeers.freshEtcd();
    }

    /**
     * preserve-local-storage erases only the OS disk (the fake hardware's record says which disks were erased)
     * and leaves no skip list behind; a retired node's destroy erases every disk and ends manageable, as the
     * retirement spec wants.
     */
    @Test
    void preserveLocalStorageErasesOnlyTheOsDiskAndARetiredNodeEndsManageable() {
        siteActionSucceeded();
        activeNode("store-1", "{\"fake_disks\":[\"sda\",\"sdb\",\"sdc\"]}");
        activeNode("old-1", "{\"fake_disks\":[\"sda\",\"sdb\"]}");
        ironic().body("[{\"op\":\"replace\",\"path\":\"/retired\",\"value\":true}]").patch("/v1/nodes/old-1").then().statusCode(200);
        Map<String, Integer> storeBefore = diskErasures("store-1");
        Map<String, Integer> oldBefore = diskErasures("old-1");
        node("store-1");
        node("old-1");

        String keep = createAction("{\"name\":\"redeploy_server\",\"parameters\":{\"target_nodes\":[\"store-1\"],"
                + "\"preserve-local-storage\":true}}").then().statusCode(201).extract().path("id");
        String retire = createAction("{\"name\":\"redeploy_server\",\"parameters\":{\"target_nodes\":[\"old-1\"]}}")
                .then().statusCode(201).extract().path("id");
        assertEquals("Complete", awaitEnd(keep), () -> given().get("/api/v1.0/actions/" + keep).asString());
        assertEquals("Complete", awaitEnd(retire), () -> given().get("/api/v1.0/actions/" + retire).asString());

        Map<String, Integer> storeAfter = diskErasures("store-1");
        assertEquals(storeBefore.getOrDefault("sda", 0) + 1, storeAfter.get("sda"), "the OS disk erased once more");
        assertEquals(storeBefore.get("sdb"), storeAfter.get("sdb"), "the data disk sdb kept");
        assertEquals(storeBefore.get("sdc"), storeAfter.get("sdc"), "the data disk sdc kept");
        JsonPath store = ironflowNode("store-1");
        assertEquals("available", store.getString("provision_state"));
        assertEquals("power off", store.getString("power_state"));
        assertNull(store.get("properties.skip_block_devices"), "the skip list is gone: the next cleaning erases every disk");

        Map<String, Integer> oldAfter = diskErasures("old-1");
        assertEquals(oldBefore.get("sda") + 1, oldAfter.get("sda"));
        assertEquals(oldBefore.get("sdb") + 1, oldAfter.get("sdb"), "without preserve-local-storage every disk is erased");
        JsonPath old = ironflowNode("old-1");
        assertEquals("manageable", old.getString("provision_state"), "a retired node rests manageable");
        assertEquals("power off", old.getString("power_state"));
        assertNull(k8s().nodes().withName("old-1").get());
    }

    /** An operator's own skip list is the destroy's only for the while: the node gets the operator's back. */
    @Test
    void preserveLocalStorageGivesTheOperatorsOwnSkipListBack() {
        siteActionSucceeded();
        activeNode("store-2", "{\"fake_disks\":[\"sda\",\"sdb\",\"sdc\"]}");
        ironic().body("[{\"op\":\"add\",\"path\":\"/properties/skip_block_devices\",\"value\":[{\"name\":\"sdc\"}]}]")
                .patch("/v1/nodes/store-2").then().statusCode(200);
        Map<String, Integer> before = diskErasures("store-2");
        node("store-2");

        String id = createAction("{\"name\":\"redeploy_server\",\"parameters\":{\"target_nodes\":[\"store-2\"],"
                + "\"preserve-local-storage\":true}}").then().statusCode(201).extract().path("id");
        assertEquals("Complete", awaitEnd(id), () -> given().get("/api/v1.0/actions/" + id).asString());

        Map<String, Integer> after = diskErasures("store-2");
        assertEquals(before.getOrDefault("sda", 0) + 1, after.get("sda"), "the OS disk erased once more");
        assertEquals(before.get("sdb"), after.get("sdb"), "the data disk sdb kept");
        assertEquals(before.get("sdc"), after.get("sdc"), "the data disk sdc kept");
        assertEquals(List.of(Map.of("name", "sdc")), ironflowNode("store-2").getList("properties.skip_block_devices"),
                "the operator's own list, not the destroy's nor none");
    }

    /**
     * A preserving destroy that fails once it set the skip list (the erase fails: clean failed) leaves the list and
     * says so: restored, the operator's retry of the cleaning would wipe the data disks the action was to keep.
     */
    @Test
    void aFailedPreservingDestroyKeepsTheDataDisksSkippedAndSaysSo() {
        siteActionSucceeded();
        activeNode("store-3", "{\"fake_disks\":[\"sda\",\"sdb\"]}");
        ironic().body("[{\"op\":\"add\",\"path\":\"/driver_info/fake_fail_steps\",\"value\":[\"deploy.erase_devices\"]}]")
                .patch("/v1/nodes/store-3").then().statusCode(200);
        node("store-3");
        String id = createAction("{\"name\":\"redeploy_server\",\"parameters\":{\"target_nodes\":[\"store-3\"],"
                + "\"preserve-local-storage\":true}}").then().statusCode(201).extract().path("id");
        assertEquals("Failed", awaitEnd(id));
        JsonPath action = given().get("/api/v1.0/actions/" + id).then().extract().jsonPath();
        assertEquals(List.of("success", "success", "failed", "skipped"), action.getList("steps.state"));
        // the same steps as Airflow tasks, in Airflow's words
        for (Map.Entry<String, String> task : Map.of("decommission", "success", "destroy", "failed", "remove-from-cluster", "skipped").entrySet()) {
            given().get("/api/v1.0/actions/" + id + "/steps/" + task.getKey()).then().statusCode(200).body("state", equalTo(task.getValue()));
        }
        String message = action.getString("steps[2].message");
        assertTrue(message.contains("clean failed") && message.contains("local storage is still preserved"), message);
        assertEquals("clean failed", ironflowNode("store-3").getString("provision_state"));
        assertEquals(List.of(Map.of("name", "sdb")), ironflowNode("store-3").getList("properties.skip_block_devices"));
    }

    /**
     * A skip-list update the conductor refuses (here: another conductor holds the node, so it answers NodeLocked)
     * fails the destroy at once with the conductor's reason, not at the destroy's 900 s timeout; nothing is undeployed.
     * An undecodable record on ironflow.intent-results ahead of the answer, or one of another type, is passed over,
     * not the end of the orchestrator's reading of answers.
     */
    @Test
    void aRefusedSkipListUpdateFailsTheDestroyAtOnceWithTheConductorsReason() {
        siteActionSucceeded();
        activeNode("held-1", "{\"fake_disks\":[\"sda\",\"sdb\"]}");
        try (KafkaTestClient kafka = KafkaTestClient.ofTestConfig()) { // keyed by the node: on its answer's partition, ahead of it
            String uuid = ironflowNode("held-1").getString("uuid");
            kafka.sendRaw("ironflow.intent-results", uuid, "not a registry-framed record".getBytes(UTF_8));
            // and a record that decodes but is no result: a node snapshot
            kafka.sendRaw("ironflow.intent-results", uuid, kafka.wrongType(NodeSnapshot.newBuilder()
                    .setUuid(uuid).setRevision(1).setDriver("fake-hardware").setProvisionState("active")
                    .setCreatedAt(java.time.Instant.now()).build()));
        }
        node("held-1");
        sql("UPDATE public.nodes SET reservation = 'another-conductor' WHERE name = ? RETURNING name", "held-1");
        try {
            long started = System.nanoTime();
            String id = createAction("{\"name\":\"redeploy_server\",\"parameters\":{\"target_nodes\":[\"held-1\"],"
                    + "\"preserve-local-storage\":true}}").then().statusCode(201).extract().path("id");
            assertEquals("Failed", awaitEnd(id));
            assertTrue(Duration.ofNanos(System.nanoTime() - started).toSeconds() < 90, "failed at once, not at the timeout");
            JsonPath action = given().get("/api/v1.0/actions/" + id).then().extract().jsonPath();
            assertEquals(List.of("success", "success", "failed", "skipped"), action.getList("steps.state"));
            String message = action.getString("steps[2].message");
            assertTrue(message.contains("refused the skip-data-disks intent") && message.contains("(409)")
                    && message.contains("another-conductor"), message);
            assertEquals("active", ironflowNode("held-1").getString("provision_state"), "nothing undeployed");
        } finally {
            sql("UPDATE public.nodes SET reservation = NULL WHERE name = ? RETURNING name", "held-1");
        }
    }

    /** The decommission's timeouts come from the action: a drain a budget blocks fails after 3 s, not an hour. */
    @Test
    void anActionsTimeoutsReachItsDecommission() {
        siteActionSucceeded();
        activeNode("pdb-1");
        node("pdb-1");
        pod("guarded", "db-pdb-1", "pdb-1", Map.of("app", "db"), "StatefulSet", "db");
        KubeFixtures.budget("guarded", "db-budget", "db", 1);
        String id = createAction("{\"name\":\"redeploy_server\",\"parameters\":{\"target_nodes\":[\"pdb-1\"],"
                + "\"drain-node-timeout\":\"3\",\"drain-node-grace-period\":1}}").then().statusCode(201).extract().path("id");
        long started = System.nanoTime();
        assertEquals("Failed", awaitEnd(id));
        assertTrue(Duration.ofNanos(System.nanoTime() - started).toSeconds() < 60, "the drain gave up after its 3 s");
        JsonPath action = given().get("/api/v1.0/actions/" + id).then().extract().jsonPath();
        assertEquals(List.of("success", "failed", "skipped", "skipped"), action.getList("steps.state"));
        assertTrue(action.getString("steps[1].message").contains("drain"), action.prettify());
        assertEquals("active", ironflowNode("pdb-1").getString("provision_state"), "nothing destroyed");
    }

    /**
     * An action another instance runs (it holds the action's lease) is left alone; once that instance is gone (it
     * renews its lease no more and the lease expires), this one takes the action over at its next rescan.
     */
    @Test
    void anActionLeasedByAnotherInstanceIsTakenOverOnlyWhenItsLeaseExpired() {
        String id = "01J" + "9".repeat(22) + "Z";
        // Stored as the other instance stored it: Processing, its preflight running, under its lease for 10 s more.
        // One statement, as that instance commits it: this one's rescan must never see the action without its lease.
        sql("WITH action AS (INSERT INTO teardown.actions (id, name, parameters, requested_by, created_at, lifecycle, updated_at)"
                + " VALUES (?, 'redeploy_server', '{\"target_nodes\":[\"elsewhere\"],\"target-revision\":\"committed\"}',"
                + " 'other', now(), 'Processing', now()) RETURNING id),"
                + " steps AS (INSERT INTO teardown.action_steps (action_id, seq, node, step, status)"
                + " SELECT id, 0, NULL, 'preflight', 'running' FROM action"
                + " UNION ALL SELECT id, 1, 'elsewhere', 'decommission', 'pending' FROM action)"
                + " INSERT INTO teardown.action_leases (action_id, owner, expires_at)"
                + " SELECT id, 'other', now() + interval '10 seconds' FROM action RETURNING owner", id);
        await().during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(8)).until(() -> "running".equals(
                given().get("/api/v1.0/actions/" + id).then().extract().path("steps[0].state")));
        assertEquals("Failed", awaitEnd(id), "taken over once the other instance's lease expired");
        given().get("/api/v1.0/actions/" + id).then().body("steps[0].state", equalTo("failed"))
                .body("steps[0].message", org.hamcrest.Matchers.containsString("elsewhere"));
        assertEquals("0", sql("SELECT count(*) FROM teardown.action_leases WHERE action_id = ?", id), "given up at the end");
    }

    /**
     * A crash after a step's failure was stored and before its action ended leaves the action Processing with a
     * failed step. The next start ends it Failed, the steps after the failure skipped; the failed step is not run
     * again (had it passed on a second try, the action would have ended Complete with the later steps skipped).
     */
    @Test
    void anActionFoundWithAFailedStepOnResumeEndsFailedWithoutRunningItAgain() {
        String id = "01J" + "6".repeat(22) + "Z";
        sql("WITH action AS (INSERT INTO teardown.actions (id, name, parameters, requested_by, created_at, lifecycle, updated_at)"
                + " VALUES (?, 'redeploy_server', '{\"target_nodes\":[\"crashed\"],\"target-revision\":\"committed\"}',"
                + " 'crashed', now(), 'Processing', now()) RETURNING id)"
                + " INSERT INTO teardown.action_steps (action_id, seq, node, step, status, message)"
                + " SELECT id, 0, NULL, 'preflight', 'failed', 'stored before the crash' FROM action"
                + " UNION ALL SELECT id, 1, 'crashed', 'decommission', 'pending', NULL FROM action RETURNING action_id", id);
        assertEquals("Failed", awaitEnd(id));
        given().get("/api/v1.0/actions/" + id).then()
                .body("steps[0].state", equalTo("failed")).body("steps[0].message", equalTo("stored before the crash"))
                .body("steps[1].state", equalTo("skipped"));
    }

    /** An event stored but never published (the orchestrator died in between) goes out at the relay's next run. */
    @Test
    void anEventLeftInTheOutboxIsPublished() {
        String action = "01J" + "8".repeat(22) + "Z";
        sql("INSERT INTO teardown.outbox (event_key, action_id, node_name, step, status, message, target_revision, occurred_at)"
                + " VALUES ('orphan', ?, 'orphan', 'destroy', 'succeeded', 'stored before a crash', NULL, now()),"
                + " ('orphan', ?, 'orphan', 'destroy', 'started', NULL, 5, now()) RETURNING seq", action, action);
        try (KafkaTestClient kafka = KafkaTestClient.ofTestConfig()) {
            List<ConsumerRecord<String, byte[]>> records = kafka.readRaw("ironflow.teardown-events", Duration.ofSeconds(30),
                    read -> read.stream().map(ActionsTest::decode).filter(e -> e.get("actionId").toString().equals(action)).count() >= 2)
                    .stream().filter(r -> decode(r).get("actionId").toString().equals(action)).toList();
            List<GenericRecord> published = records.stream().map(ActionsTest::decode).toList();
            List<String> ids = records.stream().map(r -> r.headers().lastHeader("ce_id"))
                    .map(h -> h == null ? null : new String(h.value(), UTF_8)).toList();
            assertTrue(ids.stream().allMatch(java.util.Objects::nonNull) && ids.get(0) != null && !ids.get(0).equals(ids.get(1)),
                    "each event carries its own ce_id, for consumers to tell a replay: " + ids);
            assertEquals("stored before a crash", published.get(0).get("message").toString());
            assertNull(published.get(0).get("targetRevision"), "none pinned: none published");
            assertNull(published.get(1).get("message"));
            assertEquals(5L, published.get(1).get("targetRevision"), "the pinned revision, though the message is null");
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> "0".equals(sql("SELECT count(*) FROM teardown.outbox WHERE action_id = ?", action)));
    }

    /**
     * An event no broker takes (stored by an older orchestrator before messages were bounded, 2 MB here) is moved
     * to outbox_dead_letters with the reason, and the events after it are published: retried, it would have failed
     * every batch.
     */
    @Test
    void anEventTooLargeToPublishIsDeadLetteredAndTheNextIsPublished() {
        String action = "01J" + "6".repeat(22) + "Z";
        String insert = "INSERT INTO teardown.outbox (event_key, action_id, node_name, step, status, message, occurred_at)"
                + " VALUES (?, ?, ?, 'destroy', 'failed', ?, now()) RETURNING seq";
        String big = sql(insert, "too-large", action, "too-large", "x".repeat(2 * 1024 * 1024));
        String next = "after-the-large-" + java.util.UUID.randomUUID();
        sql(insert, next, action, next, "published after it");
        relay.wakeUp();
        try (KafkaTestClient kafka = KafkaTestClient.ofTestConfig()) {
            assertTrue(kafka.readRaw("ironflow.teardown-events", Duration.ofSeconds(30),
                    read -> read.stream().anyMatch(r -> r.key().equals(next))).stream().noneMatch(r -> r.key().equals("too-large")));
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> "0".equals(sql("SELECT count(*) FROM teardown.outbox WHERE action_id = ?", action)));
        assertTrue(sql("SELECT reason FROM teardown.outbox_dead_letters WHERE seq = ?::bigint", big).contains("RecordTooLargeException"));
    }

    /**
     * Two step changes whose transactions commit out of seq order: the lower seq commits while the relay is sending
     * a batch read without it. The relay deletes only what it sent, so the next batch publishes that row; deleting
     * every seq up to the batch's last would have lost it.
     */
    @Test
    void aRowCommittedWhileItsBatchIsSentIsPublishedByTheNext() throws Exception {
        String action = "01J" + "7".repeat(22) + "Z";
        String early = "committed-first-" + java.util.UUID.randomUUID();
        String late = "committed-last-" + java.util.UUID.randomUUID();
        String insert = "INSERT INTO teardown.outbox (event_key, action_id, node_name, step, status, message, occurred_at)"
                + " VALUES (?, ?, ?, 'destroy', 'succeeded', ?, now()) RETURNING seq";
        CompletableFuture<Void> sending = new CompletableFuture<>();
        CompletableFuture<Void> release = new CompletableFuture<>();
        HeldSends.hold(early, sending, release);
        try (java.sql.Connection slow = database(false)) {
            slow.setAutoCommit(false);
            try (java.sql.PreparedStatement row = slow.prepareStatement(insert)) { // takes the lower seq
                row.setString(1, late);
                row.setString(2, action);
                row.setString(3, late);
                row.setString(4, "committed last");
                row.executeQuery().close();
            }
            sql(insert, early, action, early, "committed first");
            relay.wakeUp();
            sending.get(30, TimeUnit.SECONDS); // the relay read its batch (without the uncommitted row) and sends it
            slow.commit();
        } finally {
            release.complete(null);
        }
        try (KafkaTestClient kafka = KafkaTestClient.ofTestConfig()) {
            Set<String> published = kafka.readRaw("ironflow.teardown-events", Duration.ofSeconds(30),
                    read -> read.stream().map(ConsumerRecord::key).collect(Collectors.toSet()).containsAll(Set.of(early, late)))
                    .stream().map(ConsumerRecord::key).filter(key -> key.equals(early) || key.equals(late))
                    .collect(Collectors.toSet());
            assertEquals(Set.of(early, late), published);
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> "0".equals(sql("SELECT count(*) FROM teardown.outbox WHERE action_id = ?", action)));
    }

    @Test
    void pauseHoldsAnActionBetweenStepsAndStopEndsIt() {
        String id = createAction("{\"name\":\"redeploy_server\",\"parameters\":{\"target_nodes\":[\"held\"],\"target-revision\":\"committed\"}}")
                .then().statusCode(201).extract().path("id");
        // The preflight fails fast for an unknown node; whichever comes first, a finished action refuses control.
        int pause = given().post("/api/v1.0/actions/" + id + "/control/pause").statusCode();
        assertTrue(pause == 202 || pause == 409);
        if (pause == 202) {
            await().atMost(Duration.ofSeconds(30)).until(() -> Set.of("Paused", "Failed").contains(
                    given().get("/api/v1.0/actions/" + id).then().extract().path("action_lifecycle")));
            given().post("/api/v1.0/actions/" + id + "/control/pause").then().statusCode(409);
            given().post("/api/v1.0/actions/" + id + "/control/stop").then().statusCode(org.hamcrest.Matchers.oneOf(202, 409));
        }
        assertEquals("Failed", awaitEnd(id));
        airship(given().post("/api/v1.0/actions/" + id + "/control/unpause").then(), 409, "Conflict");
        airship(given().post("/api/v1.0/actions/" + id + "/control/explode").then(), 404, "NotFound");
    }

    /**
     * Pause and unpause are compare-and-sets: a runner that read a pause request rests the action only if the
     * request still stands, so an unpause that came in between (202) is not undone by an action left Paused with
     * no request, which nothing would resume. The action here is another instance's (its lease), so no runner of
     * this one moves it: the test plays the runner's part.
     */
    @Test
    void anUnpauseBetweenTheRunnersReadAndItsPauseWins() {
        String id = io.ironflow.teardown.actions.Ulid.next();
        sql("WITH a AS (INSERT INTO teardown.actions (id, name, parameters, requested_by, created_at, lifecycle,"
                + " pause_requested, updated_at) VALUES (?, 'deploy_site', '{}', 'test', now(), 'Processing', true, now())"
                + " RETURNING id), l AS (INSERT INTO teardown.action_leases VALUES (?, 'another-instance',"
                + " now() + interval '1 hour')) SELECT id FROM a", id, id);
        given().post("/api/v1.0/actions/" + id + "/control/unpause").then().statusCode(202);
        assertFalse(store.pauseIfRequested(id), "the request was withdrawn after the runner read it");
        assertEquals("Processing|false", sql("SELECT lifecycle || '|' || pause_requested FROM teardown.actions WHERE id = ?", id));

        given().post("/api/v1.0/actions/" + id + "/control/pause").then().statusCode(202);
        assertTrue(store.pauseIfRequested(id));
        assertEquals("Paused", sql("SELECT lifecycle FROM teardown.actions WHERE id = ?", id));
        given().post("/api/v1.0/actions/" + id + "/control/unpause").then().statusCode(202);
        assertEquals("Pending|false", sql("SELECT lifecycle || '|' || pause_requested FROM teardown.actions WHERE id = ?", id));
        airship(given().post("/api/v1.0/actions/" + id + "/control/unpause").then(), 409, "Conflict");
        given().post("/api/v1.0/actions/" + id + "/control/pause").then().statusCode(202);
        given().post("/api/v1.0/actions/" + id + "/control/stop").then().statusCode(202);
        assertFalse(store.pauseIfRequested(id), "a stop outranks a pause");
        sql("WITH l AS (DELETE FROM teardown.action_leases WHERE action_id = ? RETURNING 1),"
                + " a AS (DELETE FROM teardown.actions WHERE id = ? RETURNING 1) SELECT count(*) FROM a", id, id);
    }

    /**
     * A stop that came while the pausing run was still on its way out found the action running and started no run:
     * the action rests Paused with the stop requested and its node claimed. The rescan takes such an action and ends
     * it Failed, its steps skipped and its node released; before, it was passed over for ever (and a second stop
     * answered 409).
     */
    @Test
    void aStopLostWhileTheActionPausedIsTakenUpByTheRescan() {
        String id = io.ironflow.teardown.actions.Ulid.next();
        sql("WITH a AS (INSERT INTO teardown.actions (id, name, parameters, requested_by, created_at, lifecycle, pause_requested,"
                + " stop_requested, updated_at) VALUES (?, 'redeploy_server', '{\"target_nodes\":[\"paused-1\"],\"revision\":null}',"
                + " 'test', now(), 'Paused', true, true, now()) RETURNING id),"
                + " s AS (INSERT INTO teardown.action_steps (action_id, seq, node, step, status)"
                + " SELECT id, 0, NULL, 'preflight', 'succeeded' FROM a UNION ALL SELECT id, 1, 'paused-1', 'decommission', 'pending' FROM a)"
                + " INSERT INTO teardown.node_claims (node, action_id) SELECT 'paused-1', id FROM a RETURNING node", id);
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(500)).until(() -> "Failed".equals(
                given().get("/api/v1.0/actions/" + id).then().extract().path("action_lifecycle")));
        given().get("/api/v1.0/actions/" + id).then().body("steps[1].state", equalTo("skipped"))
                .body("steps[1].message", equalTo("stopped by request"));
        assertEquals("0", sql("SELECT count(*) FROM teardown.node_claims WHERE node = 'paused-1'"), "the node is released");
    }

    /**
     * An action whose instance died mid-destroy, stopped meanwhile by the operator: on its resume the step found
     * running was cut short, perhaps half done, so it is recorded failed (interrupted), not skipped; the steps
     * after it are skipped.
     */
    @Test
    void aStepCutShortAndThenStoppedIsRecordedFailedNotSkipped() {
        String id = io.ironflow.teardown.actions.Ulid.next();
        sql("WITH a AS (INSERT INTO teardown.actions (id, name, parameters, requested_by, created_at, lifecycle,"
                + " stop_requested, updated_at) VALUES (?, 'redeploy_server', '{\"target_nodes\":[\"cut-1\"],\"revision\":null}',"
                + " 'test', now(), 'Processing', true, now()) RETURNING id),"
                + " s AS (INSERT INTO teardown.action_steps (action_id, seq, node, step, status) SELECT id, 0, NULL, 'preflight',"
                + " 'succeeded' FROM a UNION ALL SELECT id, 1, 'cut-1', 'decommission', 'succeeded' FROM a UNION ALL"
                + " SELECT id, 2, 'cut-1', 'destroy', 'running' FROM a UNION ALL SELECT id, 3, 'cut-1', 'remove-from-cluster', 'pending' FROM a)"
                + " INSERT INTO teardown.node_claims (node, action_id) SELECT 'cut-1', id FROM a RETURNING node", id);
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(500)).until(() -> "Failed".equals(
                given().get("/api/v1.0/actions/" + id).then().extract().path("action_lifecycle")));
        given().get("/api/v1.0/actions/" + id).then().body("steps[2].state", equalTo("failed"))
                .body("steps[2].message", org.hamcrest.Matchers.startsWith("interrupted"))
                .body("steps[3].state", equalTo("skipped")).body("steps[3].message", equalTo("stopped by request"));
        assertEquals("0", sql("SELECT count(*) FROM teardown.node_claims WHERE node = 'cut-1'"), "the node is released");
    }

    /**
     * While an unfinished action claims a node, the direct node steps refuse it (409 Conflict, naming the action): a
     * direct remove-from-cluster could otherwise delete the Node mid-teardown. Parameters are still checked first
     * (400), and once the action ended the node is served again. The action is another instance's (its lease), so no
     * runner here moves it.
     */
    @Test
    void theDirectNodeStepsRefuseANodeAnUnfinishedActionClaims() {
        String id = io.ironflow.teardown.actions.Ulid.next();
        sql("WITH a AS (INSERT INTO teardown.actions (id, name, parameters, requested_by, created_at, lifecycle, updated_at)"
                + " VALUES (?, 'redeploy_server', '{\"target_nodes\":[\"claimed-1\"],\"revision\":null}', 'test', now(), 'Processing', now())"
                + " RETURNING id), l AS (INSERT INTO teardown.action_leases VALUES (?, 'another-instance', now() + interval '1 hour')),"
                + " s AS (INSERT INTO teardown.action_steps (action_id, seq, node, step, status)"
                + " SELECT id, 0, NULL, 'preflight', 'succeeded' FROM a UNION ALL SELECT id, 1, 'claimed-1', 'decommission', 'running' FROM a)"
                + " INSERT INTO teardown.node_claims (node, action_id) SELECT 'claimed-1', id FROM a RETURNING node", id, id);
        node("claimed-1");
        for (String step : List.of("drain", "clear-labels", "remove-etcd", "shutdown-kubelet", "remove-from-cluster", "decommission")) {
            airship(NodeStepsTest.post("/nodes/claimed-1/" + step).body("message", org.hamcrest.Matchers.containsString(id)), 409, "Conflict");
        }
        airship(NodeStepsTest.post("/nodes/claimed-1/drain?timeout=abc"), 400, "BadRequest");
        org.junit.jupiter.api.Assertions.assertNotNull(k8s().nodes().withName("claimed-1").get(), "the Node is still there");

        sql("WITH c AS (DELETE FROM teardown.node_claims WHERE action_id = ? RETURNING 1), l AS (DELETE FROM teardown.action_leases"
                + " WHERE action_id = ? RETURNING 1) UPDATE teardown.actions SET lifecycle = 'Failed' WHERE id = ? RETURNING id", id, id, id);
        airship(NodeStepsTest.post("/nodes/claimed-1/clear-labels"), 200, "Success");
    }

    /**
     * A direct node step claims its node while it runs: an action asked for meanwhile, and a second direct step,
     * are refused (409) naming the step. The claim goes when the step ends; one whose instance died lapses (its
     * heartbeat no longer renews it) and is taken over.
     */
    @Test
    void aDirectNodeStepClaimsItsNodeWhileItRuns() {
        node("direct-1");
        String redeploy = "{\"name\":\"redeploy_server\",\"parameters\":{\"target_nodes\":[\"direct-1\"]}}";
        // A drain running on another instance, as that instance claimed the node.
        sql("INSERT INTO teardown.node_claims (node, step, claim, expires_at) VALUES ('direct-1', 'drain', 'elsewhere',"
                + " now() + interval '1 hour') RETURNING node");
        createAction(redeploy).then().statusCode(409).body("message", org.hamcrest.Matchers.containsString("direct drain step"));
        airship(NodeStepsTest.post("/nodes/direct-1/clear-labels").body("message",
                org.hamcrest.Matchers.containsString("direct drain step")), 409, "Conflict");
        assertEquals("0", sql("SELECT count(*) FROM teardown.actions WHERE parameters LIKE '%direct-1%'"), "no action stored");

        sql("UPDATE teardown.node_claims SET expires_at = now() - interval '1 second' WHERE node = 'direct-1' RETURNING node");
        airship(NodeStepsTest.post("/nodes/direct-1/clear-labels"), 200, "Success"); // the lapsed claim is taken over
        assertEquals("0", sql("SELECT count(*) FROM teardown.node_claims WHERE node = 'direct-1'"), "released when the step ended");

        try (io.ironflow.teardown.actions.ActionLeases.NodeLease held = leases.claimNode("direct-1", "decommission")) {
            createAction(redeploy).then().statusCode(409).body("message", org.hamcrest.Matchers.containsString("decommission"));
            org.junit.jupiter.api.Assertions.assertThrows(io.ironflow.teardown.actions.NodeClaimed.class,
                    () -> leases.claimNode("direct-1", "drain"));
            String before = sql("SELECT expires_at::text FROM teardown.node_claims WHERE node = 'direct-1'");
            org.junit.jupiter.api.Assertions.assertTrue(leases.renewHeld() >= 1, "the heartbeat renews a direct claim");
            org.junit.jupiter.api.Assertions.assertNotEquals(before, sql("SELECT expires_at::text FROM teardown.node_claims WHERE node = 'direct-1'"));
        }
        String id = createAction(redeploy).then().statusCode(201).extract().path("id");
        org.junit.jupiter.api.Assertions.assertThrows(io.ironflow.teardown.actions.NodeClaimed.class,
                () -> leases.claimNode("direct-1", "drain"), "the action's own claim holds until it ends");
        assertEquals("Failed", awaitEnd(id), "no such Ironflow node: its preflight fails");
        airship(NodeStepsTest.post("/nodes/direct-1/clear-labels"), 200, "Success");
    }

    /**
     * A direct decommission whose claim lapsed while it drained (the database out of reach past lease-ttl) and was
     * taken over meanwhile stops before its next part: the node keeps its labels, and the step's end does not release
     * the claim that holds the node now.
     */
    @Test
    void aDirectDecommissionWhoseClaimWasTakenOverStopsBeforeItsNextPart() throws Exception {
        node("lapsed-1");
        pod("lapse", "db-0", "lapsed-1", Map.of("app", "db"), "StatefulSet", "db");
        KubeFixtures.budget("lapse", "db-budget", "db", 1); // the drain waits until a replacement runs elsewhere
        CompletableFuture<Response> decommission = CompletableFuture.supplyAsync(() -> given().contentType(ContentType.JSON)
                .body(NodeStepsTest.DESIGN).post("/api/v1.0/nodes/lapsed-1/decommission?drain-node-timeout=60&drain-node-grace-period=1"));
        await().atMost(Duration.ofSeconds(30)).until(() -> "decommission".equals(sql("SELECT step FROM teardown.node_claims"
                + " WHERE node = 'lapsed-1'")) && cordoned("lapsed-1")); // the drain has begun
        sql("UPDATE teardown.node_claims SET claim = 'taken-over', step = 'drain', expires_at = now() + interval '1 hour'"
                + " WHERE node = 'lapsed-1' RETURNING node");
        pod("lapse", "db-1", "elsewhere", Map.of("app", "db"), "StatefulSet", "db"); // the drain can finish now

        Response answer = decommission.get(60, TimeUnit.SECONDS);
        airship(answer.then(), 500, "DisassociateStepFailure");
        answer.then().body("message", org.hamcrest.Matchers.allOf(org.hamcrest.Matchers.containsString("stopped before clear-labels"),
                org.hamcrest.Matchers.containsString("taken over")));
        assertEquals("enabled", k8s().nodes().withName("lapsed-1").get().getMetadata().getLabels().get("openstack-control-plane"),
                "the labels are not cleared: that part did not start");
        assertEquals("taken-over", sql("SELECT claim FROM teardown.node_claims WHERE node = 'lapsed-1'"), "the new holder keeps the node");
        sql("DELETE FROM teardown.node_claims WHERE node = 'lapsed-1' RETURNING node");
    }

    /**
     * The same for an action: its lease, lost while its decommission drained and taken by another instance, stops
     * the decommission before its next part, and this instance writes nothing more (the step stays running, for the
     * lease's holder to run again).
     */
    @Test
    void anActionWhoseLeaseWasTakenOverStopsItsDecommissionBeforeItsNextPart() {
        siteActionSucceeded();
        activeNode("lapsed-2");
        node("lapsed-2");
        pod("lapse2", "db-0", "lapsed-2", Map.of("app", "db"), "StatefulSet", "db");
        KubeFixtures.budget("lapse2", "db-budget", "db", 1);
        String id = createAction("{\"name\":\"redeploy_server\",\"parameters\":{\"target_nodes\":[\"lapsed-2\"],"
                + "\"drain-node-timeout\":\"60\",\"drain-node-grace-period\":1}}").then().statusCode(201).extract().path("id");
        await().atMost(Duration.ofSeconds(30)).until(() -> "running".equals(given().get("/api/v1.0/actions/" + id).then()
                .extract().path("steps[1].state")) && cordoned("lapsed-2"));
        sql("UPDATE teardown.action_leases SET owner = 'another-instance', expires_at = now() + interval '1 hour'"
                + " WHERE action_id = ? RETURNING owner", id);
        pod("lapse2", "db-1", "elsewhere", Map.of("app", "db"), "StatefulSet", "db"); // the drain can finish now

        await().atMost(Duration.ofSeconds(30)).until(() -> KubeFixtures.podsOn("lapsed-2") == 0);
        await().during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(5)).until(() -> "enabled".equals(
                k8s().nodes().withName("lapsed-2").get().getMetadata().getLabels().get("openstack-control-plane")));
        given().get("/api/v1.0/actions/" + id).then().body("action_lifecycle", equalTo("Processing"))
                .body("steps[1].state", equalTo("running"));
        sql("WITH c AS (DELETE FROM teardown.node_claims WHERE action_id = ? RETURNING 1), l AS (DELETE FROM teardown.action_leases"
                + " WHERE action_id = ? RETURNING 1) UPDATE teardown.actions SET lifecycle = 'Failed' WHERE id = ? RETURNING id", id, id, id);
    }

    private static boolean cordoned(String node) {
        io.fabric8.kubernetes.api.model.NodeSpec spec = k8s().nodes().withName(node).get().getSpec();
        return spec != null && Boolean.TRUE.equals(spec.getUnschedulable());
    }

    /**
     * Fencing: a runner's writes go through only while its instance holds the action's unexpired lease. An instance
     * that lost it (the database out of its reach for longer than the lease) writes nothing, neither a step's result
     * nor the action's end, which would release the node claims of an action another instance now runs.
     */
    @Test
    void theWritesOfAnInstanceWithoutTheLeaseAreRefusedAndChangeNothing() {
        String id = io.ironflow.teardown.actions.Ulid.next();
        sql("WITH a AS (INSERT INTO teardown.actions (id, name, parameters, requested_by, created_at, lifecycle, updated_at)"
                + " VALUES (?, 'redeploy_server', '{\"target_nodes\":[\"fenced-1\"],\"revision\":null}', 'test', now(), 'Paused', now())"
                + " RETURNING id), l AS (INSERT INTO teardown.action_leases VALUES (?, 'holder', now() + interval '1 hour')),"
                + " s AS (INSERT INTO teardown.action_steps (action_id, seq, node, step, status)"
                + " SELECT id, 0, NULL, 'preflight', 'running' FROM a UNION ALL SELECT id, 1, 'fenced-1', 'decommission', 'pending' FROM a)"
                + " INSERT INTO teardown.node_claims (node, action_id) SELECT 'fenced-1', id FROM a RETURNING node", id, id);
        String state = "SELECT (SELECT string_agg(status, ',' ORDER BY seq) FROM teardown.action_steps WHERE action_id = ?) || '|' || lifecycle"
                + " || '|' || (SELECT count(*) FROM teardown.node_claims WHERE action_id = ?) FROM teardown.actions WHERE id = ?";
        org.junit.jupiter.api.Assertions.assertThrows(io.ironflow.teardown.actions.LeaseLost.class,
                () -> store.stepFinished(id, 0, "failed", "from the past", null, List.of(), "stale-instance"));
        org.junit.jupiter.api.Assertions.assertThrows(io.ironflow.teardown.actions.LeaseLost.class,
                () -> store.finish(id, "Failed", "stale-instance"));
        org.junit.jupiter.api.Assertions.assertThrows(io.ironflow.teardown.actions.LeaseLost.class,
                () -> store.lifecycle(id, "Processing", "stale-instance"));
        // A deploy_site's end tags its revision in the same fenced transaction: no tag from a stale instance.
        org.junit.jupiter.api.Assertions.assertThrows(io.ironflow.teardown.actions.LeaseLost.class, () -> store.finish(id,
                "Complete", "stale-instance", new ActionStore.SiteActionTag(1, "site-action-success")));
        assertEquals("0", sql("SELECT count(*) FROM teardown.revision_tags WHERE data = ?", "action_id:" + id), "no tag written");
        assertEquals("running,pending|Paused|1", sql(state, id, id, id), "nothing written, the node still claimed");

        store.stepFinished(id, 0, "succeeded", "by the holder", null, List.of(), "holder");
        sql("UPDATE teardown.action_leases SET expires_at = now() - interval '1 second' WHERE action_id = ? RETURNING owner", id);
        org.junit.jupiter.api.Assertions.assertThrows(io.ironflow.teardown.actions.LeaseLost.class,
                () -> store.finish(id, "Failed", "holder"), "an expired lease fences its own holder too");
        assertEquals("succeeded,pending|Paused|1", sql(state, id, id, id));
        sql("WITH c AS (DELETE FROM teardown.node_claims WHERE action_id = ? RETURNING 1), l AS (DELETE FROM teardown.action_leases"
                + " WHERE action_id = ? RETURNING 1) UPDATE teardown.actions SET lifecycle = 'Failed' WHERE id = ? RETURNING id", id, id, id);
    }

    /**
     * Shipyard's concurrency check: a deploy_site is refused (409, naming the action) while any other action has not
     * ended, Paused included, and every action while a deploy_site has not; nothing refused is stored. Twelve
     * deploy_sites asked for at once never overlap: each one accepted was created after every earlier one had ended.
     * The blocking action is another instance's (its lease), so no runner of this one moves it.
     */
    @Test
    void aSiteActionRunsAloneAsShipyardsConcurrencyCheckHasIt() throws Exception {
        siteActionSucceeded();
        String siteAction = "{\"name\":\"deploy_site\",\"parameters\":{\"allow-intermediate-commits\":true}}";
        String teardown = "{\"name\":\"redeploy_server\",\"parameters\":{\"target_nodes\":[\"concurrency-1\"]}}";
        String blocker = io.ironflow.teardown.actions.Ulid.next();
        sql("WITH a AS (INSERT INTO teardown.actions (id, name, parameters, requested_by, created_at, lifecycle, updated_at)"
                + " VALUES (?, 'redeploy_server', '{}', 'test', now(), 'Paused', now()) RETURNING id), l AS (INSERT INTO"
                + " teardown.action_leases VALUES (?, 'another-instance', now() + interval '1 hour')), s AS (INSERT INTO"
                + " teardown.action_steps (action_id, seq, node, step, status) SELECT id, 0, NULL, 'preflight', 'pending' FROM a)"
                + " SELECT id FROM a", blocker, blocker);
        given().get("/api/v1.0/actions/" + blocker + "/steps/preflight").then().statusCode(200)
                .body("state", org.hamcrest.Matchers.nullValue()).body("start_date", org.hamcrest.Matchers.nullValue());
        long before = Long.parseLong(sql("SELECT count(*) FROM teardown.actions"));
        given().get("/api/v1.0/actions/" + blocker).then().body("dag_status", equalTo("paused"));
        airship(createAction(siteAction).then().body("message", org.hamcrest.Matchers.containsString(
                "deploy_site conflicts with running redeploy_server " + blocker + " (Paused)")), 409, "Conflict");
        sql("UPDATE teardown.actions SET name = 'deploy_site', lifecycle = 'Processing' WHERE id = ? RETURNING id", blocker);
        airship(createAction(teardown).then().body("message", org.hamcrest.Matchers.containsString(
                "redeploy_server conflicts with running deploy_site " + blocker)), 409, "Conflict");
        airship(createAction(siteAction).then().body("message", org.hamcrest.Matchers.containsString(blocker)), 409, "Conflict");
        assertEquals(before, Long.parseLong(sql("SELECT count(*) FROM teardown.actions")), "a refused action is not stored");
        assertEquals("0", sql("SELECT count(*) FROM teardown.node_claims WHERE node = 'concurrency-1'"));
        sql("WITH l AS (DELETE FROM teardown.action_leases WHERE action_id = ? RETURNING 1), s AS (DELETE FROM"
                + " teardown.action_steps WHERE action_id = ? RETURNING 1) SELECT count(*) FROM l", blocker, blocker);
        sql("DELETE FROM teardown.actions WHERE id = ? RETURNING id", blocker);

        // A creation stuck while it holds the creation lock (here a session holding it) delays others by 5 s at most:
        // they are answered 503, store nothing, and the next one after it is released goes through.
        try (java.sql.Connection stuck = database(false);
                java.sql.Statement lock = stuck.createStatement()) {
            lock.execute("SELECT pg_advisory_lock(" + 0x7EA2_C4EAL + ")");
            long stored = Long.parseLong(sql("SELECT count(*) FROM teardown.actions"));
            long asked = System.nanoTime();
            airship(createAction(teardown).then(), 503, "ServiceUnavailable");
            assertTrue(System.nanoTime() - asked < TimeUnit.SECONDS.toNanos(20), "answered within the lock's wait");
            assertEquals(stored, Long.parseLong(sql("SELECT count(*) FROM teardown.actions")), "nothing stored");
        }
        String after = createAction(teardown).then().statusCode(201).extract().path("id");
        assertEquals("Failed", awaitEnd(after)); // concurrency-1 is no node: its preflight fails

        java.util.concurrent.CountDownLatch start = new java.util.concurrent.CountDownLatch(1);
        List<CompletableFuture<Response>> asked = java.util.stream.IntStream.range(0, 12).mapToObj(i -> CompletableFuture.supplyAsync(() -> {
            try {
                start.await();
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
            return createAction(siteAction);
        })).toList();
        start.countDown();
        List<String> accepted = new java.util.ArrayList<>();
        for (CompletableFuture<Response> answer : asked) {
            Response response = answer.get(60, TimeUnit.SECONDS);
            assertTrue(Set.of(201, 409).contains(response.statusCode()), response::asString);
            if (response.statusCode() == 201) {
                accepted.add(response.path("id"));
            } else {
                airship(response.then().body("message", org.hamcrest.Matchers.containsString("deploy_site conflicts with running deploy_site")),
                        409, "Conflict");
            }
        }
        assertFalse(accepted.isEmpty(), "one of them runs");
        for (String id : accepted) {
            assertEquals("Complete", awaitEnd(id));
        }
        List<String> spans = accepted.stream().map(id -> sql("SELECT extract(epoch FROM created_at) || ' ' || extract(epoch FROM updated_at)"
                + " FROM teardown.actions WHERE id = ?", id)).sorted(java.util.Comparator.comparing(span -> new java.math.BigDecimal(span.split(" ")[0])))
                .toList();
        for (int i = 1; i < spans.size(); i++) {
            assertTrue(new java.math.BigDecimal(spans.get(i).split(" ")[0]).compareTo(new java.math.BigDecimal(spans.get(i - 1).split(" ")[1])) >= 0,
                    "created before the one before it had ended: " + spans);
        }
    }

    @Test
    void configdocsVersionsAndTheIntermediateCommitGuard() {
        given().body("a: 1\n").post("/api/v1.0/configdocs/guard").then().statusCode(201);
        airship(given().body("a: [unclosed").post("/api/v1.0/configdocs/bad").then(), 400, "BadRequest");
        given().get("/api/v1.0/configdocs?base-version=committed&diff-version=buffer").then().statusCode(200)
                .body("find { it.collection_name == 'guard' }.new_status", equalTo("created"));
        given().post("/api/v1.0/commitconfigdocs").then().statusCode(200);
        airship(given().post("/api/v1.0/commitconfigdocs").then(), 400, "BadRequest");
        given().body("a: 2\n").post("/api/v1.0/configdocs/guard").then().statusCode(201);
        given().post("/api/v1.0/commitconfigdocs").then().statusCode(200);
        given().get("/api/v1.0/configdocs/guard?version=committed").then().statusCode(200).body(org.hamcrest.Matchers.containsString("a: 2"));
        airship(createAction("{\"name\":\"deploy_site\"}").then(), 409, "Conflict");
        awaitNoActionUnfinished();
        String id = createAction("{\"name\":\"deploy_site\",\"parameters\":{\"allow-intermediate-commits\":\"true\"}}")
                .then().statusCode(201).extract().path("id");
        assertEquals("Complete", awaitEnd(id));
        int revision = given().get("/api/v1.0/actions/" + id).then().extract().path("parameters.revision");
        given().get("/api/v1.0/revisions/" + revision + "/tags").then().body("[0]", equalTo("site-action-success action_id:" + id));
        given().get("/api/v1.0/configdocs?version=successful-site-action").then().statusCode(200)
                .body("find { it.collection_name == 'guard' }.revision", equalTo(revision));
        given().get("/api/v1.0/configdocs?base-version=successful-site-action&diff-version=committed").then()
                .body("find { it.collection_name == 'guard' }.new_status", equalTo("unmodified"));
        airship(given().get("/api/v1.0/configdocs?version=nonsense").then(), 400, "BadRequest");
    }

    static {
        RestAssured.enableLoggingOfRequestAndResponseIfValidationFails();
    }
}
