package io.ironflow.dashboard;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.not;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ironflow.deploy.testing.IronflowTestInfrastructure;
import io.ironflow.deploy.testing.KafkaTestClient;
import io.ironflow.events.NodeEvent;
import io.ironflow.events.NodeSnapshot;
import io.ironflow.schemas.Topic;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The dashboard's view follows what conductors publish on the real broker: snapshots in revision order, tombstones,
 * deduplicated events, undecodable records skipped, and the SSE stream pushing a change.
 */
@QuarkusTest
@QuarkusTestResource(IronflowTestInfrastructure.class)
class DashboardFeedTest {

    @ConfigProperty(name = "kafka.bootstrap.servers")
    String bootstrapServers;

    @ConfigProperty(name = "mp.messaging.connector.smallrye-kafka.apicurio.registry.url")
    String registryUrl;

    @TestHTTPResource("/api/stream")
    URL stream;

    private KafkaTestClient kafka;

    @BeforeEach
    void connect() {
        kafka = new KafkaTestClient(bootstrapServers, registryUrl);
    }

    @AfterEach
    void close() {
        kafka.close();
    }

    @Test
    void aNodeFollowsItsNewestSnapshotAndLeavesOnItsTombstone() {
        String uuid = UUID.randomUUID().toString();
        String name = "board-" + uuid.substring(0, 8);
        kafka.send(Topic.NODE_STATE.topicName(), uuid, snapshot(uuid, name, 2, "manageable"));
        // An older revision arriving late (a replay) changes nothing.
        kafka.send(Topic.NODE_STATE.topicName(), uuid, snapshot(uuid, name, 1, "enroll"));
        kafka.send(Topic.NODE_STATE.topicName(), uuid, snapshot(uuid, name, 3, "available"));
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> given().get("/api/nodes/" + name)
                .then().statusCode(200).body("node.provisionState", equalTo("available")).body("node.revision", equalTo(3)));
        given().queryParam("q", name.toUpperCase()).get("/api/nodes")
                .then().statusCode(200).body("total", equalTo(1)).body("nodes.uuid", contains(uuid));
        given().queryParam("state", "available").queryParam("maintenance", "false").get("/api/nodes")
                .then().statusCode(200).body("nodes.uuid", hasItem(uuid));
        given().queryParam("state", "manageable").get("/api/nodes")
                .then().statusCode(200).body("nodes.uuid", not(hasItem(uuid)));

        kafka.send(Topic.NODE_STATE.topicName(), uuid, null);
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> given().get("/api/nodes/" + uuid)
                .then().statusCode(404).body("error_message", equalTo("Node " + uuid + " could not be found.")));
    }

    @Test
    void eventsAreDeduplicatedAndMakeTheNodesTimeline() {
        String uuid = UUID.randomUUID().toString();
        kafka.send(Topic.NODE_STATE.topicName(), uuid, snapshot(uuid, null, 1, "manageable"));
        NodeEvent created = event(uuid, null, "create", "enroll");
        NodeEvent managed = event(uuid, "enroll", "manage", "manageable");
        kafka.send(Topic.NODE_EVENTS.topicName(), uuid, created);
        kafka.send(Topic.NODE_EVENTS.topicName(), uuid, managed);
        kafka.send(Topic.NODE_EVENTS.topicName(), uuid, managed); // the relay publishes at least once
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> given().get("/api/nodes/" + uuid)
                .then().statusCode(200).body("history.event", contains("create", "manage"))
                .body("history[1].intentId", equalTo(managed.getIntentId())));
    }

    @Test
    void anUndecodableOrWrongTypeRecordIsSkippedAndTheFeedGoesOn() {
        String poisoned = UUID.randomUUID().toString();
        kafka.sendRaw(Topic.NODE_STATE.topicName(), poisoned, "not avro at all".getBytes(StandardCharsets.UTF_8));
        // Records that decode, each of the other topic's type: an event as a snapshot, a snapshot as an event.
        kafka.sendRaw(Topic.NODE_STATE.topicName(), poisoned, kafka.wrongType(event(poisoned, null, "create", "enroll")));
        kafka.sendRaw(Topic.NODE_EVENTS.topicName(), poisoned, kafka.wrongType(snapshot(poisoned, null, 1, "enroll")));
        String uuid = UUID.randomUUID().toString();
        kafka.send(Topic.NODE_STATE.topicName(), poisoned, snapshot(poisoned, null, 1, "enroll"));
        kafka.send(Topic.NODE_EVENTS.topicName(), poisoned, event(poisoned, null, "create", "enroll"));
        kafka.send(Topic.NODE_STATE.topicName(), uuid, snapshot(uuid, null, 1, "enroll"));
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            given().get("/api/nodes/" + uuid).then().statusCode(200);
            given().get("/api/nodes/" + poisoned).then().statusCode(200).body("history.event", contains("create"));
        });
        given().get("/q/health/live").then().statusCode(200);
    }

    @Test
    void badQueriesAre400InIronicsShape() {
        given().queryParam("limit", "0").get("/api/nodes").then().statusCode(400)
                .body("error_message", equalTo("limit must be a number from 1 to 1000, not '0'"));
        given().queryParam("limit", "abc").get("/api/nodes").then().statusCode(400);
        given().queryParam("maintenance", "yes").get("/api/nodes").then().statusCode(400)
                .body("error_message", equalTo("maintenance must be true or false, not 'yes'"));
    }

    @Test
    void theStreamPushesAChangeWithinASecond() throws Exception {
        HttpClient client = HttpClient.newHttpClient();
        HttpRequest request = HttpRequest.newBuilder(URI.create(stream.toString()))
                .header("Accept", "text/event-stream").build();
        HttpResponse<java.io.InputStream> response = client.send(request, HttpResponse.BodyHandlers.ofInputStream());
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(response.body(), StandardCharsets.UTF_8))) {
            String first = nextData(lines);
            assertTrue(first.contains("\"summary\""), first);
            String uuid = UUID.randomUUID().toString();
            CompletableFuture<String> seen = CompletableFuture.supplyAsync(() -> {
                String data;
                while ((data = nextData(lines)) != null) {
                    if (data.contains(uuid)) {
                        return data;
                    }
                }
                return null;
            });
            kafka.send(Topic.NODE_EVENTS.topicName(), uuid, event(uuid, null, "create", "enroll"));
            String tick = seen.get(5, TimeUnit.SECONDS);
            assertTrue(tick.contains("\"changed\":true"), tick);
        } finally {
            response.body().close();
        }
    }

    private static String nextData(BufferedReader lines) {
        try {
            String line;
            while ((line = lines.readLine()) != null) {
                if (line.startsWith("data:")) {
                    return line.substring("data:".length()).trim();
                }
            }
            return null;
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    static NodeSnapshot snapshot(String uuid, String name, long revision, String state) {
        return NodeSnapshot.newBuilder().setUuid(uuid).setRevision(revision).setName(name).setDriver("fake-hardware")
                .setProvisionState(state).setCreatedAt(Instant.now()).setUpdatedAt(Instant.now()).build();
    }

    static NodeEvent event(String uuid, String from, String event, String to) {
        return NodeEvent.newBuilder().setEventId(UUID.randomUUID().toString()).setNodeUuid(uuid).setFromState(from)
                .setEvent(event).setToState(to).setIntentId(UUID.randomUUID().toString()).setConductor("c1")
                .setOccurredAt(Instant.now()).build();
    }
}
