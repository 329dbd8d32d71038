package io.ironflow.conductor;

import io.ironflow.conductor.testing.Conductor;
import io.ironflow.conductor.testing.Sql;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ironflow.deploy.testing.IronflowTestInfrastructure;
import io.ironflow.deploy.testing.KafkaTestClient;
import io.ironflow.events.CreateNode;
import io.ironflow.events.DeleteNode;
import io.ironflow.events.ProvisionAction;
import io.ironflow.policy.IntentRules;
import io.ironflow.policy.Principal;
import io.ironflow.events.IntentResult;
import io.ironflow.events.NodeEvent;
import io.ironflow.events.NodeIntent;
import io.ironflow.events.NodeSnapshot;
import io.ironflow.schemas.Topic;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The conductor driven only through Kafka, as any system other than the API would drive it: a plain producer
 * sends intents with the schemas jar's types, a plain consumer reads the answers. Real broker, registry and
 * PostgreSQL.
 */
@QuarkusTest
@QuarkusTestResource(IronflowTestInfrastructure.class)
class NodeIntentsTest {

    private static final Duration WAIT = Duration.ofSeconds(30);

    @ConfigProperty(name = "kafka.bootstrap.servers")
    String bootstrapServers;
    @ConfigProperty(name = "mp.messaging.connector.smallrye-kafka.apicurio.registry.url")
    String registryUrl;

    KafkaTestClient kafka;
    KafkaTestClient.Follower<IntentResult> intentResults;

    @BeforeEach
    void connect() {
        kafka = new KafkaTestClient(bootstrapServers, registryUrl);
        intentResults = kafka.follow(Topic.INTENT_RESULTS.topicName());
    }

    @AfterEach
    void disconnect() {
        intentResults.close();
        kafka.close();
    }

    @Test
    void createNodeIsPersistedAndAnnouncedInOneStep() throws Exception {
        String uuid = UUID.randomUUID().toString();
        NodeIntent intent = create(uuid, "n-" + uuid.substring(0, 8), "fake-hardware",
                "{\"ipmi_address\": \"10.0.0.1\", \"ipmi_password\": \"s3cret\"}");
        kafka.send(Topic.NODE_INTENTS.topicName(), uuid, intent);

        IntentResult result = awaitResult(intent.getIntentId());
        assertTrue(result.getAccepted());
        assertEquals(201, result.getCode());
        NodeSnapshot node = result.getNode();
        assertEquals(uuid, node.getUuid());
        assertEquals("enroll", node.getProvisionState());
        assertNull(node.getTargetProvisionState());
        assertNull(node.getPowerState());
        assertFalse(node.getMaintenance());
        assertEquals("{\"ipmi_address\":\"10.0.0.1\",\"ipmi_password\":\"******\"}", node.getDriverInfo());

        // Flyway created the schema over JDBC; Hibernate Reactive wrote the row over the reactive client.
        assertEquals(latestMigration(), queryOne("SELECT version FROM flyway_schema_history WHERE success ORDER BY installed_rank DESC LIMIT 1"));
        assertEquals("enroll", queryOne("SELECT provision_state FROM nodes WHERE uuid = '" + uuid + "'"));
        assertEquals("s3cret", queryOne("SELECT driver_info->>'ipmi_password' FROM nodes WHERE uuid = '" + uuid + "'"));
        await().atMost(WAIT).untilAsserted(() ->
                assertEquals("0", queryOne("SELECT count(*) FROM outbox"), "the relay publishes and empties the outbox"));

        List<ConsumerRecord<String, NodeSnapshot>> states = kafka.read(Topic.NODE_STATE.topicName(), WAIT,
                records -> records.stream().anyMatch(r -> r.key().equals(uuid)));
        ConsumerRecord<String, NodeSnapshot> state = states.stream().filter(r -> r.key().equals(uuid)).findFirst().orElseThrow();
        assertEquals("enroll", state.value().getProvisionState());
        assertNotNull(state.headers().lastHeader("ce_id"), "published as a binary-mode CloudEvent");
        assertEquals("io.ironflow.node.state", new String(state.headers().lastHeader("ce_type").value(), StandardCharsets.UTF_8),
                "one producer publishes every topic, each record with its topic's event type");

        List<ConsumerRecord<String, NodeEvent>> events = kafka.read(Topic.NODE_EVENTS.topicName(), WAIT,
                records -> records.stream().anyMatch(r -> r.key().equals(uuid)));
        NodeEvent event = events.stream().filter(r -> r.key().equals(uuid)).findFirst().orElseThrow().value();
        assertNull(event.getFromState());
        assertEquals("create", event.getEvent());
        assertEquals("enroll", event.getToState());
        assertEquals(intent.getIntentId(), event.getIntentId());
    }

    @Test
    void aRedeliveredIntentIsAnsweredAgainAndAppliedOnce() throws SQLException {
        String uuid = UUID.randomUUID().toString();
        NodeIntent intent = create(uuid, null, "fake-hardware", "{}");
        kafka.send(Topic.NODE_INTENTS.topicName(), uuid, intent);
        kafka.send(Topic.NODE_INTENTS.topicName(), uuid, intent);

        List<ConsumerRecord<String, IntentResult>> results = kafka.read(Topic.INTENT_RESULTS.topicName(), WAIT,
                records -> records.stream().filter(r -> r.value().getIntentId().equals(intent.getIntentId())).count() == 2);
        List<IntentResult> answers = results.stream().map(ConsumerRecord::value)
                .filter(r -> r.getIntentId().equals(intent.getIntentId())).toList();
        assertEquals(2, answers.size());
        assertEquals(201, answers.get(0).getCode());
        assertEquals(201, answers.get(1).getCode(), "the same answer, not 409 for a node that now exists");
        assertEquals("1", queryOne("SELECT count(*) FROM nodes WHERE uuid = '" + uuid + "'"));
        assertEquals("1", queryOne("SELECT count(*) FROM processed_intents WHERE intent_id = '" + intent.getIntentId() + "'"));

        // A command on an existing node: its earlier answer is read with the node's lock, in one statement.
        NodeIntent manage = Conductor.intent(uuid, ProvisionAction.newBuilder().setTarget("manage").build());
        kafka.send(Topic.NODE_INTENTS.topicName(), uuid, manage);
        kafka.send(Topic.NODE_INTENTS.topicName(), uuid, manage);
        List<IntentResult> managed = kafka.<IntentResult>read(Topic.INTENT_RESULTS.topicName(), WAIT,
                        records -> records.stream().filter(r -> r.value().getIntentId().equals(manage.getIntentId())).count() == 2)
                .stream().map(ConsumerRecord::value).filter(r -> r.getIntentId().equals(manage.getIntentId())).toList();
        assertEquals(List.of(202, 202), managed.stream().map(IntentResult::getCode).toList());
        assertEquals("manageable", managed.get(1).getNode().getProvisionState(), "the node as it is, in the second answer too");
        assertEquals("1", queryOne("SELECT count(*) FROM processed_intents WHERE intent_id = '" + manage.getIntentId() + "'"));

        List<String> events = kafka.<NodeEvent>read(Topic.NODE_EVENTS.topicName(), Duration.ofSeconds(3), r -> false).stream()
                .filter(r -> r.key().equals(uuid)).map(r -> r.value().getEvent()).toList();
        assertEquals(List.of("create", "manage", "done"), events, "no transition applied twice");
    }

    @Test
    void badCommandsAreRefusedAndChangeNothing() throws SQLException {
        String uuid = UUID.randomUUID().toString();
        NodeIntent unknownDriver = create(uuid, null, "no-such-driver", "{}");
        kafka.send(Topic.NODE_INTENTS.topicName(), uuid, unknownDriver);
        IntentResult refused = awaitResult(unknownDriver.getIntentId());
        assertFalse(refused.getAccepted());
        assertEquals(400, refused.getCode());
        assertTrue(refused.getErrorMessage().contains("no-such-driver"), refused.getErrorMessage());
        assertEquals("0", queryOne("SELECT count(*) FROM nodes WHERE uuid = '" + uuid + "'"));

        // Two nodes, one name, on different partitions: the consumers decide them concurrently, the unique
        // index settles the race, and the loser is retried into Ironic's 409.
        String name = "taken-" + uuid.substring(0, 8);
        String first = UUID.randomUUID().toString();
        String second = UUID.randomUUID().toString();
        NodeIntent one = create(first, name, "fake-hardware", "{}");
        NodeIntent other = create(second, name, "fake-hardware", "{}");
        kafka.send(Topic.NODE_INTENTS.topicName(), first, one);
        kafka.send(Topic.NODE_INTENTS.topicName(), second, other);
        List<IntentResult> answers = List.of(awaitResult(one.getIntentId()), awaitResult(other.getIntentId()));
        assertEquals(List.of(201, 409), answers.stream().map(IntentResult::getCode).sorted().toList());
        IntentResult conflict = answers.stream().filter(a -> a.getCode() == 409).findFirst().orElseThrow();
        assertEquals("A node with name " + name + " already exists.", conflict.getErrorMessage());
        assertEquals("1", queryOne("SELECT count(*) FROM nodes WHERE name = '" + name + "'"));
        assertEquals("0", queryOne("SELECT count(*) FROM nodes WHERE uuid = '" + conflict.getNodeUuid() + "'"));

        NodeIntent badName = create(UUID.randomUUID().toString(), "no spaces", "fake-hardware", "{}");
        kafka.send(Topic.NODE_INTENTS.topicName(), badName.getNodeUuid(), badName);
        assertEquals(400, awaitResult(badName.getIntentId()).getCode());

        NodeIntent badDict = create(UUID.randomUUID().toString(), null, "fake-hardware", "[1, 2]");
        kafka.send(Topic.NODE_INTENTS.topicName(), badDict.getNodeUuid(), badDict);
        assertEquals(400, awaitResult(badDict.getIntentId()).getCode());
    }

    /**
     * Another producer may name a node by something that is not a UUID: no node has that id, so the intent is
     * answered like any other (404, or 400 for a creation), recorded, and answered again the same when redelivered.
     */
    @Test
    void intentsNamingNoUuidAreAnsweredAndRecorded() throws SQLException {
        NodeIntent manage = Conductor.intent("node-1", ProvisionAction.newBuilder().setTarget("manage").build());
        NodeIntent delete = Conductor.intent("", DeleteNode.newBuilder().build());
        NodeIntent enroll = create("x".repeat(300), null, "fake-hardware", "{}");
        for (NodeIntent intent : List.of(manage, delete, enroll, manage)) {
            kafka.send(Topic.NODE_INTENTS.topicName(), intent.getNodeUuid(), intent);
        }
        IntentResult notFound = awaitResult(manage.getIntentId());
        assertFalse(notFound.getAccepted());
        assertEquals(404, notFound.getCode());
        assertEquals("Node node-1 could not be found.", notFound.getErrorMessage());
        assertEquals(404, awaitResult(delete.getIntentId()).getCode());
        IntentResult badCreate = awaitResult(enroll.getIntentId());
        assertEquals(400, badCreate.getCode(), badCreate.getErrorMessage());
        List<IntentResult> answers = kafka.<IntentResult>read(Topic.INTENT_RESULTS.topicName(), WAIT,
                        records -> records.stream().filter(r -> r.value().getIntentId().equals(manage.getIntentId())).count() == 2)
                .stream().map(ConsumerRecord::value).filter(r -> r.getIntentId().equals(manage.getIntentId())).toList();
        assertEquals(List.of(404, 404), answers.stream().map(IntentResult::getCode).toList(), "the redelivery answered the same");
        for (NodeIntent intent : List.of(manage, delete, enroll)) {
            assertEquals("t", queryOne("SELECT node_uuid IS NULL FROM processed_intents WHERE intent_id = '" + intent.getIntentId() + "'"));
        }
        assertEquals("1", queryOne("SELECT count(*) FROM processed_intents WHERE intent_id = '" + manage.getIntentId() + "'"));
    }

    @Test
    void aPoisonRecordIsDeadLetteredAndTheConsumerGoesOn() {
        String poisonKey = UUID.randomUUID().toString();
        RecordMetadata poison = kafka.sendRaw(Topic.NODE_INTENTS.topicName(), poisonKey, "not avro".getBytes(StandardCharsets.UTF_8));
        ConsumerRecord<String, byte[]> letter = kafka.deadLetter(Topic.NODE_INTENTS_DLQ.topicName(), poisonKey, WAIT);
        assertNotNull(letter.headers().lastHeader("dead-letter-reason"));
        assertNotNull(letter.headers().lastHeader("deserialization-failure-reason"), "the decoder's own reason is kept");
        // Committed although nothing follows it on its partition: else every rebalance dead-letters it again.
        await("the poison record committed").atMost(WAIT).until(() -> kafka.committedOffset("ironflow-conductor",
                Topic.NODE_INTENTS.topicName(), poison.partition()) > poison.offset());

        // A record that decodes but is no NodeIntent (a command framed as another topic's record): the same.
        String wrongTypeKey = UUID.randomUUID().toString();
        kafka.sendRaw(Topic.NODE_INTENTS.topicName(), wrongTypeKey,
                kafka.wrongType(CreateNode.newBuilder().setDriver("fake-hardware").build()));
        ConsumerRecord<String, byte[]> wrongType = kafka.deadLetter(Topic.NODE_INTENTS_DLQ.topicName(), wrongTypeKey, WAIT);
        assertTrue(new String(wrongType.headers().lastHeader("dead-letter-reason").value(), StandardCharsets.UTF_8)
                .contains("not a NodeIntent"));

        String uuid = UUID.randomUUID().toString();
        NodeIntent after = create(uuid, null, "fake-hardware", "{}");
        kafka.send(Topic.NODE_INTENTS.topicName(), uuid, after);
        assertEquals(201, awaitResult(after.getIntentId()).getCode());
    }

    /**
     * Kafka is no way around the policy: intents published straight to the topic by callers without the right are
     * answered 403 (or 404 for a node their project may not see) and change nothing; one with the right is applied.
     */
    @Test
    void intentsWhoseCallerLacksTheRightAreRefusedAndChangeNothing() throws Exception {
        String uuid = UUID.randomUUID().toString();
        NodeIntent enroll = NodeIntent.newBuilder(create(uuid, null, "fake-hardware", "{}"))
                .setCommand(CreateNode.newBuilder().setDriver("fake-hardware").setOwner("owner-project").build()).build();
        kafka.send(Topic.NODE_INTENTS.topicName(), uuid, enroll);
        assertEquals(201, awaitResult(enroll.getIntentId()).getCode());
        String revision = queryOne("SELECT revision FROM nodes WHERE uuid = '" + uuid + "'");

        Principal ownerReader = new Principal("reader", "owner-project", Set.of("reader"), false);
        Principal stranger = new Principal("stranger", "other-project", Set.of("admin"), false);
        Principal ownerMember = new Principal("member", "owner-project", Set.of("member"), false);
        NodeIntent manage = as(ownerReader, uuid, ProvisionAction.newBuilder().setTarget("manage").build());
        NodeIntent delete = as(stranger, uuid, DeleteNode.newBuilder().build());
        NodeIntent anonymous = NodeIntent.newBuilder(as(ownerMember, uuid, ProvisionAction.newBuilder().setTarget("manage").build()))
                .setPrincipal(null).build();
        NodeIntent memberCreates = as(ownerMember, UUID.randomUUID().toString(), CreateNode.newBuilder().setDriver("fake-hardware").build());
        for (NodeIntent refused : List.of(manage, delete, anonymous, memberCreates)) {
            kafka.send(Topic.NODE_INTENTS.topicName(), refused.getNodeUuid(), refused);
        }
        IntentResult readerAnswer = awaitResult(manage.getIntentId());
        assertFalse(readerAnswer.getAccepted());
        assertEquals(403, readerAnswer.getCode(), readerAnswer.getErrorMessage());
        assertTrue(readerAnswer.getErrorMessage().contains("baremetal:node:set_provision_state"), readerAnswer.getErrorMessage());
        assertEquals(404, awaitResult(delete.getIntentId()).getCode(), "another project may not even see the node");
        assertTrue(new String(kafka.deadLetter(Topic.NODE_INTENTS_DLQ.topicName(), uuid, WAIT).headers()
                .lastHeader("dead-letter-reason").value(), StandardCharsets.UTF_8).contains("not signed"),
                "an intent naming no principal cannot be signed: it is dead-lettered unanswered");
        assertEquals(403, awaitResult(memberCreates.getIntentId()).getCode(), "create is for system admins");
        assertEquals("enroll", queryOne("SELECT provision_state FROM nodes WHERE uuid = '" + uuid + "'"));
        assertEquals(revision, queryOne("SELECT revision FROM nodes WHERE uuid = '" + uuid + "'"), "nothing changed");
        assertEquals("0", queryOne("SELECT count(*) FROM nodes WHERE uuid = '" + memberCreates.getNodeUuid() + "'"));

        NodeIntent allowed = as(ownerMember, uuid, ProvisionAction.newBuilder().setTarget("manage").build());
        kafka.send(Topic.NODE_INTENTS.topicName(), uuid, allowed);
        assertTrue(awaitResult(allowed.getIntentId()).getAccepted(), "the owner's member may provision its node");
    }

    private static NodeIntent as(Principal who, String uuid, Object command) {
        return NodeIntent.newBuilder().setIntentId(UUID.randomUUID().toString()).setNodeUuid(uuid)
                .setRequester(who.user()).setPrincipal(IntentRules.toAvro(who)).setRequestedAt(Instant.now())
                .setCommand(command).build();
    }

    @Test
    void readinessCoversKafkaAndTheDatabase() {
        String body = RestAssured.get("/q/health/ready").then().statusCode(200).extract().asString();
        assertTrue(body.contains("Kafka"), body);
        assertTrue(body.contains("Reactive PostgreSQL"), body);
        assertTrue(body.contains("node intents subscription"), body);
    }

    private IntentResult awaitResult(String intentId) {
        return intentResults.await(WAIT,
                        records -> records.stream().anyMatch(r -> r.value().getIntentId().equals(intentId)))
                .stream().map(ConsumerRecord::value).filter(r -> r.getIntentId().equals(intentId))
                .findFirst().orElseThrow(() -> new AssertionError("no result for intent " + intentId));
    }

    private static NodeIntent create(String uuid, String name, String driver, String driverInfo) {
        return Conductor.intent(uuid, CreateNode.newBuilder().setName(name).setDriver(driver).setDriverInfo(driverInfo).build());
    }

    /** The first column of the first row {@code sql} answers; a query that answers no row fails the test. */
    private static String queryOne(String sql) throws SQLException {
        String value = Sql.query(sql);
        assertNotNull(value, sql);
        return value;
    }

    /** The version of the newest migration the module ships (V<n>__*.sql). */
    private static String latestMigration() throws IOException {
        try (var files = Files.list(Path.of("src/main/resources/db/migration"))) {
            return String.valueOf(files.map(f -> f.getFileName().toString())
                    .filter(f -> f.matches("V\\d+__.*\\.sql"))
                    .mapToInt(f -> Integer.parseInt(f.substring(1, f.indexOf("__"))))
                    .max().orElseThrow());
        }
    }
}
