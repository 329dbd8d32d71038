package io.ironflow.conductor.testing;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.ironflow.deploy.testing.KafkaTestClient;
import io.ironflow.events.ChangePowerState;
import io.ironflow.events.CreateNode;
import io.ironflow.events.DeleteNode;
import io.ironflow.events.IntentResult;
import io.ironflow.events.NodeEvent;
import io.ironflow.events.NodeIntent;
import io.ironflow.events.ProvisionAction;
import io.ironflow.events.SetMaintenance;
import io.ironflow.events.UpdateNode;
import io.ironflow.schemas.Topic;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.Predicate;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigProvider;

/**
 * The conductor-service tests' one way to drive a conductor: through Kafka only, as an operator's tools would
 * through the API. Each call sends one intent (built by {@link #intent}, as a system admin) and waits for its
 * result, read from intent-results as one consumer has followed it since {@link #connect} (not a consumer per
 * call); node rows are read straight from PostgreSQL, as the datasource's own user; waits are Awaitility's,
 * bounded by {@link #WAIT}. Scenario tests get one per test from {@link ConductorScenario}.
 */
public final class Conductor implements AutoCloseable {

    /** The conductor refuses intents that name no principal; these tests act as a system admin. */
    public static final io.ironflow.events.IntentPrincipal SYSTEM_ADMIN = io.ironflow.policy.IntentRules.toAvro(
            new io.ironflow.policy.Principal("test", null, java.util.Set.of("admin"), true));


    public static final Duration WAIT = Duration.ofSeconds(30);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final KafkaTestClient kafka;
    private final KafkaTestClient.Follower<IntentResult> intentResults;

    private Conductor(String bootstrapServers, String registryUrl) {
        this.kafka = new KafkaTestClient(bootstrapServers, registryUrl);
        this.intentResults = kafka.follow(Topic.INTENT_RESULTS.topicName());
    }

    /** Connects to the Kafka, registry and PostgreSQL the test's conductor was configured with. */
    public static Conductor connect() {
        Config config = ConfigProvider.getConfig();
        return new Conductor(config.getValue("kafka.bootstrap.servers", String.class),
                config.getValue("mp.messaging.connector.smallrye-kafka.apicurio.registry.url", String.class));
    }

    public String create(Map<String, Object> driverInfo) {
        String uuid = UUID.randomUUID().toString();
        IntentResult result = send(uuid, CreateNode.newBuilder().setDriver("fake-hardware").setDriverInfo(json(driverInfo)).build());
        assertEquals(201, result.getCode(), result.getErrorMessage());
        return uuid;
    }

    public IntentResult provision(String uuid, String target) {
        return send(uuid, ProvisionAction.newBuilder().setTarget(target).build());
    }

    public IntentResult clean(String uuid, String cleanStepsJson) {
        return send(uuid, ProvisionAction.newBuilder().setTarget("clean").setCleanSteps(cleanStepsJson).build());
    }

    public IntentResult rescue(String uuid, String password) {
        return send(uuid, ProvisionAction.newBuilder().setTarget("rescue").setRescuePassword(password).build());
    }

    public IntentResult power(String uuid, String target) {
        return send(uuid, ChangePowerState.newBuilder().setTarget(target).build());
    }

    public IntentResult maintenance(String uuid, boolean on, String reason) {
        return send(uuid, SetMaintenance.newBuilder().setMaintenance(on).setReason(reason).build());
    }

    public IntentResult patch(String uuid, String patchJson) {
        return send(uuid, UpdateNode.newBuilder().setPatch(patchJson).build());
    }

    public IntentResult delete(String uuid) {
        return send(uuid, new DeleteNode());
    }

    /** Sends a verb that must be accepted, then waits for the node to come to rest in {@code state}. */
    public void drive(String uuid, String target, String state) {
        IntentResult result = provision(uuid, target);
        assertEquals(202, result.getCode(), target + ": " + result.getErrorMessage());
        awaitState(uuid, state);
    }

    public IntentResult send(String uuid, Object command) {
        NodeIntent intent = intent(uuid, command);
        kafka.send(Topic.NODE_INTENTS.topicName(), uuid, intent);
        return resultOf(intent.getIntentId());
    }

    /** The first result of the intent, read as intent-results has been followed since {@link #connect}. */
    public IntentResult resultOf(String intentId) {
        return intentResults.await(WAIT, records -> records.stream().anyMatch(r -> r.value().getIntentId().equals(intentId)))
                .stream().map(ConsumerRecord::value).filter(r -> r.getIntentId().equals(intentId))
                .findFirst().orElseThrow(() -> new AssertionError("no result for intent " + intentId));
    }

    /** Sends every intent at once (keyed by node uuid) and answers each one's result, by intentId. */
    public Map<String, IntentResult> sendAll(List<NodeIntent> intents) {
        intents.forEach(intent -> kafka.send(Topic.NODE_INTENTS.topicName(), intent.getNodeUuid(), intent));
        Set<String> ids = new HashSet<>(intents.stream().map(NodeIntent::getIntentId).toList());
        Map<String, IntentResult> results = new HashMap<>();
        intentResults.await(WAIT, records -> records.stream()
                        .filter(r -> ids.contains(r.value().getIntentId())).map(r -> r.value().getIntentId())
                        .distinct().count() == ids.size())
                .forEach(r -> {
                    if (ids.contains(r.value().getIntentId())) {
                        results.putIfAbsent(r.value().getIntentId(), r.value());
                    }
                });
        return results;
    }

    public static NodeIntent intent(String uuid, Object command) {
        return NodeIntent.newBuilder()
                .setIntentId(UUID.randomUUID().toString())
                .setNodeUuid(uuid)
                .setRequester("test")
                .setPrincipal(SYSTEM_ADMIN)
                .setRequestedAt(Instant.now())
                .setCommand(command)
                .build();
    }

    /** Publishes {@code value} on {@code topic} as another producer would (an Avro record, through the registry). */
    public void publish(String topic, String key, Object value) {
        kafka.send(topic, key, value);
    }

    /** Publishes bytes as they are: a poison record, or a record of another type ({@link #wrongType}). */
    public void publishRaw(String topic, String key, byte[] value) {
        kafka.sendRaw(topic, key, value);
    }

    /** {@code value} framed as a record of the wrong type for any real topic ({@link KafkaTestClient#wrongType}). */
    public byte[] wrongType(org.apache.avro.generic.GenericContainer value) {
        return kafka.wrongType(value);
    }

    /** Every record {@code topic} holds now, values as the bytes on the wire. */
    public List<byte[]> recordsOn(String topic) {
        return kafka.readAllRaw(topic, WAIT).stream().map(ConsumerRecord::value).toList();
    }

    /** Polls from at once and often: ConcurrentLifecyclesTest awaits 200 nodes that are mostly there already. */
    public void awaitState(String uuid, String state) {
        await().pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(50)).atMost(WAIT)
                .untilAsserted(() -> assertEquals(state, column(uuid, "provision_state"), "last_error: " + column(uuid, "last_error")));
    }

    /** Every transition announced for the node, in order, read until there are {@code atLeast}. */
    public List<NodeEvent> events(String uuid, int atLeast) {
        return eventsUntil(uuid, events -> events.size() >= atLeast);
    }

    /**
     * Every transition announced for the node, in order, read until one is {@code event} (an event name, such as
     * "destroy"): for a life whose length the test does not count, where {@link #events} would wait out its
     * deadline.
     */
    public List<NodeEvent> eventsThrough(String uuid, String event) {
        return eventsUntil(uuid, events -> events.stream().anyMatch(e -> event.equals(e.getEvent())));
    }

    /** The node's events on node-events, in order, read until {@code enough} holds for them (or the deadline). */
    private List<NodeEvent> eventsUntil(String uuid, Predicate<List<NodeEvent>> enough) {
        return eventsOf(uuid, kafka.<NodeEvent>read(Topic.NODE_EVENTS.topicName(), WAIT,
                records -> enough.test(eventsOf(uuid, records))));
    }

    private static List<NodeEvent> eventsOf(String uuid, List<ConsumerRecord<String, NodeEvent>> records) {
        return records.stream().filter(r -> r.key().equals(uuid)).map(ConsumerRecord::value).toList();
    }

    public String column(String uuid, String expression) throws SQLException {
        return query("SELECT " + expression + " FROM nodes WHERE uuid = '" + uuid + "'");
    }

    public String query(String sql) throws SQLException {
        return Sql.query(sql);
    }

    public void execute(String sql) throws SQLException {
        Sql.execute(sql);
    }

    public static String json(Object value) {
        try {
            return JSON.writeValueAsString(value);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() {
        intentResults.close();
        kafka.close();
    }
}
