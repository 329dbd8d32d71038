package io.ironflow.conductor.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ironflow.conductor.testing.Conductor;
import io.ironflow.conductor.testing.Sql;
import io.ironflow.deploy.infra.IntentKeyring;
import io.ironflow.deploy.testing.IronflowTestInfrastructure;
import io.ironflow.deploy.testing.KafkaTestClient;
import io.ironflow.events.CreateNode;
import io.ironflow.events.DeleteNode;
import io.ironflow.events.IntentResult;
import io.ironflow.events.NodeIntent;
import io.ironflow.events.ProvisionAction;
import io.ironflow.events.UpdateNode;
import io.ironflow.intents.IntentSigner;
import io.ironflow.policy.IntentRules;
import io.ironflow.policy.Principal;
import io.ironflow.schemas.Topic;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 58's critical finding, played as the attacker: a producer with the write ACL on ironflow.node-intents (or,
 * on a broker without authentication, any local process) names an admin principal. Only a signature by a trusted
 * key, for that intent, node and command, makes the conductor believe a principal; and no answer carries more of
 * the node than its requester may read.
 */
@QuarkusTest
@QuarkusTestResource(IronflowTestInfrastructure.class)
class ForgedIntentsTest {

    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final Principal ADMIN = new Principal("admin", null, Set.of("admin"), true);

    @ConfigProperty(name = "kafka.bootstrap.servers")
    String bootstrapServers;
    @ConfigProperty(name = "mp.messaging.connector.smallrye-kafka.apicurio.registry.url")
    String registryUrl;

    KafkaTestClient kafka;
    KafkaTestClient.Follower<IntentResult> results;

    @BeforeEach
    void connect() {
        kafka = new KafkaTestClient(bootstrapServers, registryUrl);
        results = kafka.follow(Topic.INTENT_RESULTS.topicName());
    }

    @AfterEach
    void disconnect() {
        results.close();
        kafka.close();
    }

    @Test
    void forgedUnsignedAndTamperedIntentsAreDeadLetteredUnansweredAndChangeNothing() throws Exception {
        String node = enrolled("p1");
        String revision = Sql.query("SELECT revision FROM nodes WHERE uuid = '" + node + "'");

        NodeIntent unsigned = intent(ADMIN, node, new DeleteNode());
        unsigned.setSignature(null);
        NodeIntent foreignKey = foreignSigner().sign(intent(ADMIN, node, new DeleteNode()));
        NodeIntent tampered = intent(ADMIN, node, new ProvisionAction("manage", null, null, null, null));
        tampered.setSignature(signed(intent(ADMIN, node, new ProvisionAction("manage", null, null, null, null))).getSignature());
        NodeIntent swapped = signed(intent(ADMIN, node, new UpdateNode("[]")));
        swapped.setCommand(new DeleteNode());
        NodeIntent garbage = intent(ADMIN, node, new DeleteNode());
        garbage.setSignature("eyJhbGciOiJub25lIn0.eyJzdWIiOiJhZG1pbiJ9.");

        for (NodeIntent forged : List.of(unsigned, foreignKey, tampered, swapped, garbage)) {
            kafka.sendRaw(Topic.NODE_INTENTS.topicName(), node, bytes(forged)); // as given: KafkaTestClient signs nothing raw
        }
        List<String> reasons = kafka.readRaw(Topic.NODE_INTENTS_DLQ.topicName(), WAIT,
                        records -> records.stream().filter(r -> node.equals(r.key())).count() >= 5).stream()
                .filter(r -> node.equals(r.key()))
                .map(r -> new String(r.headers().lastHeader("dead-letter-reason").value(), StandardCharsets.UTF_8)).toList();
        assertTrue(reasons.stream().anyMatch(r -> r.contains("not signed")), reasons.toString());
        assertTrue(reasons.stream().anyMatch(r -> r.contains("does not verify") || r.contains("is not trusted")), reasons.toString());
        assertTrue(reasons.stream().anyMatch(r -> r.contains("another intent")), reasons.toString());
        assertTrue(reasons.stream().anyMatch(r -> r.contains("another command")), reasons.toString());

        // A signed intent sent after them is answered: the forged ones before it were passed over, none answered.
        IntentResult after = send(signed(intent(ADMIN, node, new UpdateNode("[{\"op\":\"add\",\"path\":\"/extra/after\",\"value\":\"1\"}]"))));
        assertEquals(200, after.getCode(), after.getErrorMessage());
        assertEquals(Long.parseLong(revision) + 1, Long.parseLong(Sql.query("SELECT revision FROM nodes WHERE uuid = '" + node + "'")));
        for (NodeIntent forged : List.of(unsigned, foreignKey, tampered, swapped, garbage)) {
            assertFalse(results.await(Duration.ZERO, r -> true).stream().anyMatch(r -> r.value().getIntentId().equals(forged.getIntentId())),
                    "a forged intent is not answered: nobody authenticated asked");
            assertEquals("0", Sql.query("SELECT count(*) FROM processed_intents WHERE intent_id = '" + forged.getIntentId() + "'"));
        }
    }

    @Test
    void aPrincipalTheRecordNamesBesideItsSignatureIsRefused() throws Exception {
        String node = enrolled("p1");
        Principal member = new Principal("mallory", "p2", Set.of("member"), false);
        NodeIntent promoted = signed(intent(member, node, new DeleteNode()));
        promoted.setPrincipal(IntentRules.toAvro(ADMIN));
        kafka.sendRaw(Topic.NODE_INTENTS.topicName(), node, bytes(promoted));
        ConsumerRecord<String, byte[]> letter = kafka.deadLetter(Topic.NODE_INTENTS_DLQ.topicName(), node, WAIT);
        assertTrue(new String(letter.headers().lastHeader("dead-letter-reason").value(), StandardCharsets.UTF_8)
                .contains("another principal"));
        assertEquals("1", Sql.query("SELECT count(*) FROM nodes WHERE uuid = '" + node + "'"));
    }

    @Test
    void aReplayedSignedIntentIsAppliedOnce() throws Exception {
        String node = enrolled("p1");
        String revision = Sql.query("SELECT revision FROM nodes WHERE uuid = '" + node + "'");
        NodeIntent patch = signed(intent(ADMIN, node, new UpdateNode("[{\"op\":\"add\",\"path\":\"/extra/once\",\"value\":\"1\"}]")));
        assertEquals(200, send(patch).getCode());
        kafka.sendRaw(Topic.NODE_INTENTS.topicName(), node, bytes(patch)); // the same record, replayed
        NodeIntent later = signed(intent(ADMIN, node, new UpdateNode("[{\"op\":\"add\",\"path\":\"/extra/later\",\"value\":\"1\"}]")));
        assertEquals(200, send(later).getCode());
        assertEquals(Long.parseLong(revision) + 2, Long.parseLong(Sql.query("SELECT revision FROM nodes WHERE uuid = '" + node + "'")),
                "the replay changed nothing");
        assertEquals("1", Sql.query("SELECT count(*) FROM processed_intents WHERE intent_id = '" + patch.getIntentId() + "'"));
    }

    @Test
    void aRefusedIntentsAnswerCarriesNoNodeAndAnAcceptedOneOnlyWhatItsRequesterMayRead() throws Exception {
        String node = enrolled("p1");
        send(signed(intent(ADMIN, node, new UpdateNode("[{\"op\":\"add\",\"path\":\"/lessee\",\"value\":\"p2\"}]"))));

        IntentResult stranger = send(signed(intent(new Principal("eve", "p3", Set.of("admin"), false), node, new DeleteNode())));
        assertEquals(404, stranger.getCode());
        assertNull(stranger.getNode(), "a refusal must not let a bogus intent read the node");
        IntentResult reader = send(signed(intent(new Principal("rita", "p1", Set.of("reader"), false), node,
                new ProvisionAction("manage", null, null, null, null))));
        assertEquals(403, reader.getCode());
        assertNull(reader.getNode());

        IntentResult lessee = send(signed(intent(new Principal("lee", "p2", Set.of("admin"), false), node,
                new UpdateNode("[{\"op\":\"add\",\"path\":\"/extra/lessee\",\"value\":\"1\"}]"))));
        assertEquals(200, lessee.getCode(), lessee.getErrorMessage());
        assertTrue(lessee.getNode().getDriverInfo().contains("Redacted"), lessee.getNode().getDriverInfo());
        assertFalse(lessee.getNode().getDriverInfo().contains("10.9.8.7"));
    }

    private String enrolled(String owner) {
        String uuid = UUID.randomUUID().toString();
        IntentResult created = send(signed(intent(ADMIN, uuid, CreateNode.newBuilder().setDriver("fake-hardware").setOwner(owner)
                .setDriverInfo("{\"ipmi_address\": \"10.9.8.7\"}").build())));
        assertEquals(201, created.getCode(), created.getErrorMessage());
        return uuid;
    }

    private IntentResult send(NodeIntent intent) {
        kafka.sendRaw(Topic.NODE_INTENTS.topicName(), intent.getNodeUuid(), bytes(intent));
        return results.await(WAIT, records -> records.stream().anyMatch(r -> r.value().getIntentId().equals(intent.getIntentId())))
                .stream().map(ConsumerRecord::value).filter(r -> r.getIntentId().equals(intent.getIntentId())).findFirst().orElseThrow();
    }

    /** The intent framed by the registry's serializer, to send as given. */
    private byte[] bytes(NodeIntent intent) {
        return kafka.serialized(Topic.NODE_INTENTS.topicName(), intent);
    }

    private static NodeIntent signed(NodeIntent intent) {
        return new IntentSigner(Path.of(System.getProperty(KafkaTestClient.SIGNING_KEY))).sign(intent);
    }

    /** A key this conductor does not trust, with the same name as the trusted one. */
    private static IntentSigner foreignSigner() throws Exception {
        Path dir = Files.createTempDirectory("foreign-keys");
        return new IntentSigner(IntentKeyring.at(dir).signingKey("tests", IntentKeyring.anybody()));
    }

    private static NodeIntent intent(Principal who, String node, Object command) {
        return NodeIntent.newBuilder().setIntentId(UUID.randomUUID().toString()).setNodeUuid(node).setRequester(who.user())
                .setPrincipal(IntentRules.toAvro(who)).setRequestedAt(Instant.now()).setNotAfter(Instant.now().plusSeconds(60))
                .setCommand(command).build();
    }
}
