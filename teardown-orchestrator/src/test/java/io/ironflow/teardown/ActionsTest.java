package io.ironflow.teardown;

import static io.ironflow.teardown.KubeFixtures.k8s;
import static io.ironflow.teardown.KubeFixtures.node;
import static io.ironflow.teardown.KubeFixtures.pod;
import static io.ironflow.teardown.NodeStepsTest.airship;
import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ironflow.deploy.testing.IronflowTestInfrastructure;
import io.ironflow.deploy.testing.KafkaTestClient;
import io.ironflow.events.TeardownStepEvent;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
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
        ironic().body("{\"driver\":\"fake-hardware\",\"name\":\"" + name + "\"}").post("/v1/nodes").then().statusCode(201);
        for (String[] verb : new String[][] {{"manage", "manageable"}, {"provide", "available"}, {"active", "active"}}) {
            ironic().body("{\"target\":\"" + verb[0] + "\"}").put("/v1/nodes/" + name + "/states/provision").then().statusCode(202);
            await().atMost(Duration.ofSeconds(60)).until(() -> verb[1].equals(ironflowNode(name).getString("provision_state")));
        }
    }

    /** What the fake hardware recorded (the API keeps driver_internal_info private; the test reads the row). */
    static int erasedDevices(String name) {
        String url = ConfigProvider.getConfig().getValue("quarkus.datasource.jdbc.url", String.class);
        try (java.sql.Connection c = java.sql.DriverManager.getConnection(url, "ironflow", "ironflow");
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

    static void siteActionSucceeded() {
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
        airship(createAction("{\"name\":\"redeploy_server\",\"parameters\":{\"target_nodes\":[\"x\"],\"preserve-local-storage\":true}}").then(),
                400, "BadRequest");
        airship(given().get("/api/v1.0/actions/01J0000000000000000000000Z").then(), 404, "NotFound");
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
        assertEquals(List.of("succeeded", "succeeded", "succeeded", "succeeded"), states);

        JsonPath node = ironflowNode("node-1");
        assertEquals("available", node.getString("provision_state"));
        assertEquals("power off", node.getString("power_state"));
        assertEquals(erasedBefore + 1, erasedDevices("node-1"), "every disk erased once more");
        assertNull(k8s().nodes().withName("node-1").get(), "the Kubernetes Node is gone");
        given().queryParam("design_ref", "deckhand+http://x/revisions/1/rendered-documents").get("/api/v1.0/etcd-cluster-health-statuses")
                .then().body("details.messageList.name", org.hamcrest.Matchers.containsInAnyOrder("node-0", "node-2"));

        String bootstrap = ConfigProvider.getConfig().getValue("kafka.bootstrap.servers", String.class);
        String registry = ConfigProvider.getConfig().getValue("mp.messaging.connector.smallrye-kafka.apicurio.registry.url", String.class);
        try (KafkaTestClient kafka = new KafkaTestClient(bootstrap, registry)) {
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
