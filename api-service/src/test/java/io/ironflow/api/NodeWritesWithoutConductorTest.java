package io.ironflow.api;

import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ironflow.deploy.testing.IronflowTestInfrastructure;
import io.ironflow.deploy.testing.KafkaTestClient;
import io.ironflow.events.CreateNode;
import io.ironflow.events.NodeIntent;
import io.ironflow.schemas.Topic;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The API on real Kafka, registry and PostgreSQL with no conductor running: what it refuses by itself, and
 * what happens to a write nobody answers. (The whole slice with a conductor is tested in deploy/stack.)
 */
@QuarkusTest
@QuarkusTestResource(IronflowTestInfrastructure.class)
class NodeWritesWithoutConductorTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @ConfigProperty(name = "kafka.bootstrap.servers")
    String bootstrapServers;
    @ConfigProperty(name = "mp.messaging.connector.smallrye-kafka.apicurio.registry.url")
    String registryUrl;

    @ParameterizedTest
    @ValueSource(strings = {"{\"driver\": ", "[]", "{\"name\": \"n1\"}", "{\"driver\": 7}",
            "{\"driver\": \"fake-hardware\", \"driver_info\": \"x\"}", "{\"driver\": \"fake-hardware\", \"bogus\": 1}",
            "{\"driver\": \"fake-hardware\", \"uuid\": \"not-a-uuid\"}"})
    void malformedBodiesAre400InIronicsShape(String body) throws Exception {
        Response response = Api.latest().contentType("application/json").body(body).post("/v1/nodes");
        assertEquals(400, response.statusCode(), response.asString());
        JsonNode fault = fault(response);
        assertEquals("Client", fault.get("faultcode").asText());
        assertTrue(fault.has("debuginfo"));
        assertTrue(!fault.get("faultstring").asText().isBlank());
    }

    @Test
    void aWriteNoConductorAnswersIs503AndItsIntentExpiresBeforeTheWaitEnds() throws Exception {
        String uuid = UUID.randomUUID().toString();
        Response response = Api.latest().contentType("application/json")
                .body("{\"driver\": \"fake-hardware\", \"name\": \"queued\", \"uuid\": \"" + uuid + "\"}")
                .post("/v1/nodes");
        assertEquals(503, response.statusCode(), response.asString());
        JsonNode fault = fault(response);
        assertEquals("Server", fault.get("faultcode").asText());
        assertTrue(fault.get("faultstring").asText().contains("refuses it, so it is not applied"), fault.toString());

        try (KafkaTestClient kafka = new KafkaTestClient(bootstrapServers, registryUrl)) {
            List<ConsumerRecord<String, NodeIntent>> intents = kafka.read(Topic.NODE_INTENTS.topicName(),
                    Duration.ofSeconds(20), records -> records.stream().anyMatch(r -> r.key().equals(uuid)));
            NodeIntent intent = intents.stream().filter(r -> r.key().equals(uuid)).findFirst().orElseThrow().value();
            CreateNode create = (CreateNode) intent.getCommand();
            assertEquals("queued", create.getName());
            assertEquals("fake-hardware", create.getDriver());
            assertEquals("anonymous", intent.getRequester());
            // the test profile waits 3 s with a 500 ms margin: conductors must not start it after 2.5 s
            Duration startBy = Duration.between(intent.getRequestedAt(), intent.getNotAfter());
            assertTrue(startBy.compareTo(Duration.ofMillis(2499)) >= 0 && startBy.compareTo(Duration.ofMillis(2500)) <= 0,
                    "notAfter " + intent.getNotAfter() + " for an intent sent at " + intent.getRequestedAt());
            assertTrue(fault.get("faultstring").asText().contains(intent.getNotAfter().toString()), fault.toString());
        }
    }

    @jakarta.inject.Inject
    io.vertx.mutiny.sqlclient.Pool pool;

    /** No read runs for ever: the API's sessions carry a statement timeout, and its expiry (57014) is a 503. */
    @Test
    void theApisReadsHaveAStatementTimeout() {
        assertEquals("10s", pool.query("SHOW statement_timeout").execute().await().atMost(Duration.ofSeconds(10))
                .iterator().next().getString(0));
    }

    @Test
    void httpMetricsAreByRouteTemplateAndStatusNeverByRawPath() {
        int status = Api.latest().get("/v1/nodes/metrics-probe-node").statusCode(); // 503 here: no node table
        String metrics = io.restassured.RestAssured.given().get("/q/metrics").then().statusCode(200).extract().asString();
        assertTrue(metrics.lines().anyMatch(line -> line.startsWith("http_server_requests_seconds_count{")
                && line.contains("status=\"" + status + "\"") && line.contains("uri=\"/v1/nodes/{")), metrics);
        assertTrue(!metrics.contains("metrics-probe-node"), "a raw path became a label");
        assertTrue(metrics.contains("http_server_requests_seconds_bucket{"), "no latency histogram per route");
    }

    @Test
    void theIntentContinuesTheRequestsTrace() throws Exception {
        String uuid = UUID.randomUUID().toString();
        String traceId = "0af7651916cd43dd8448eb211c80319c";
        Api.latest().contentType("application/json").header("traceparent", "00-" + traceId + "-b7ad6b7169203331-01")
                .body("{\"driver\": \"fake-hardware\", \"uuid\": \"" + uuid + "\"}").post("/v1/nodes");
        try (KafkaTestClient kafka = new KafkaTestClient(bootstrapServers, registryUrl)) {
            List<ConsumerRecord<String, NodeIntent>> intents = kafka.read(Topic.NODE_INTENTS.topicName(),
                    Duration.ofSeconds(20), records -> records.stream().anyMatch(r -> r.key().equals(uuid)));
            var header = intents.stream().filter(r -> r.key().equals(uuid)).findFirst().orElseThrow()
                    .headers().lastHeader("traceparent");
            assertTrue(header != null, "the intent carries no traceparent");
            assertEquals(traceId, new String(header.value(), java.nio.charset.StandardCharsets.UTF_8).split("-")[1],
                    "the intent is not in the request's trace");
        }
    }

    @Test
    void unknownPathsAnswerInIronicsShape() throws Exception {
        Response response = Api.latest().get("/v1/no-such-thing");
        assertEquals(404, response.statusCode());
        assertEquals("Client", fault(response).get("faultcode").asText());
    }

    @Test
    void readinessCoversKafkaTheDatabaseAndTheResultsSubscription() {
        Api.latest().get("/q/health/ready").then().statusCode(200)
                .body(containsString("Kafka"))
                .body(containsString("Reactive PostgreSQL"))
                .body("checks.find { it.name == 'intent results subscription' }.status", equalTo("UP"));
    }

    private static JsonNode fault(Response response) throws Exception {
        JsonNode body = JSON.readTree(response.asString());
        return JSON.readTree(body.get("error_message").asText());
    }
}
