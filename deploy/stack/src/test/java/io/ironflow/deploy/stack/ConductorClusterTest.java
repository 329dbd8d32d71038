package io.ironflow.deploy.stack;

import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ironflow.deploy.infra.ChildJvm;
import io.ironflow.deploy.infra.Infrastructure;
import io.ironflow.deploy.infra.IntentKeyring;
import io.ironflow.deploy.infra.Ports;
import io.ironflow.deploy.testing.KafkaTestClient;
import io.ironflow.deploy.testing.TestDirectories;
import io.ironflow.events.CreateNode;
import io.ironflow.events.IntentResult;
import io.ironflow.events.NodeEvent;
import io.ironflow.events.NodeIntent;
import io.ironflow.events.ProvisionAction;
import io.ironflow.events.SetMaintenance;
import io.ironflow.schemas.Topic;
import java.net.URI;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Two conductor processes in one consumer group on real Kafka and PostgreSQL, driven only with the schemas
 * jar and plain Kafka clients: many nodes through interleaved intents ({@code stack.test.cluster-nodes}: 30 in the
 * README's test command, 200 with {@code -Pscale}), then a kill -9 of one conductor while nodes clean
 * asynchronously. Heartbeats are shrunk (1 s, dead after 5 s) so takeover fits in a test.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ConductorClusterTest {

    private static final Duration WAIT = Duration.ofSeconds(90);
    private static final int NODES = Integer.getInteger("stack.test.cluster-nodes", 30);
    private static final List<String> LIFECYCLE = List.of("manage", "provide", "active", "deleted");
    private static final Map<String, String> STABLE_AFTER = Map.of("manage", "manageable", "provide", "available",
            "active", "active", "deleted", "available");

    private final Path dataDir = Path.of("target", "cluster-test-" + UUID.randomUUID()).toAbsolutePath();
    private final Path home = Path.of(System.getProperty("ironflow.registry.jar")).getParent().getParent().getParent().getParent();
    private Infrastructure infrastructure;
    private final Map<String, ChildJvm> conductors = new LinkedHashMap<>();
    private KafkaTestClient kafka;

    @BeforeAll
    void up() throws Exception {
        infrastructure = Infrastructure.start(Infrastructure.Settings.freePorts(dataDir,
                home.resolve("deploy/schema-registry/target/apicurio-registry-runner.jar")));
        Map<String, URI> ready = new LinkedHashMap<>();
        for (String name : List.of("conductor-a", "conductor-b")) {
            int port = Ports.free(1)[0];
            Map<String, String> config = new HashMap<>(infrastructure.serviceConfig());
            config.putAll(keys().testServiceConfig());
            config.putAll(Map.of("quarkus.http.port", String.valueOf(port), "ironflow.conductor.name", name,
                    "ironflow.conductor.heartbeat-interval", "1s", "ironflow.conductor.heartbeat-timeout", "5s",
                    "ironflow.conductor.call-back-sweep-interval", "1s",
                    // A killed consumer's partitions move to the survivor after this, not Kafka's default 45 s.
                    "mp.messaging.incoming.node-intents.session.timeout.ms", "6000",
                    "mp.messaging.incoming.node-intents.heartbeat.interval.ms", "1000",
                    "java.io.tmpdir", dataDir.toString()));
            ChildJvm jvm = ChildJvm.start(name, home.resolve("conductor-service/target/quarkus-app/quarkus-run.jar"),
                    List.of("-Xmx384m"), config, infrastructure.serviceEnvironment(), dataDir.resolve("logs").resolve(name + ".log"));
            conductors.put(name, jvm);
            ready.put(name, URI.create("http://127.0.0.1:" + port + "/q/health/ready"));
        }
        // Both start at once, as a group's members do; each has its own deadline.
        for (Map.Entry<String, URI> conductor : ready.entrySet()) {
            conductors.get(conductor.getKey()).awaitReady(conductor.getValue(), Duration.ofSeconds(120));
        }
        kafka = new KafkaTestClient(infrastructure.kafka().bootstrapServers(), infrastructure.registry().apiUrl())
                .signingIntentsWith(Path.of(keys().testServiceConfig().get("ironflow.intents.signing-key")));
    }

    private IntentKeyring keys() {
        return IntentKeyring.at(dataDir.resolve("intent-keys"));
    }

    @AfterAll
    void down() {
        if (kafka != null) {
            kafka.close();
        }
        conductors.values().forEach(ChildJvm::close);
        if (infrastructure != null) {
            infrastructure.close();
        }
        TestDirectories.deleteRecursively(dataDir);
    }

    @Test
    @Order(1)
    void manyNodesEndWhereTheirIntentsSayAndNoTransitionAppliesTwice() throws Exception {
        List<String> nodes = new ArrayList<>();
        List<NodeIntent> creates = new ArrayList<>();
        for (int i = 0; i < NODES; i++) {
            String uuid = UUID.randomUUID().toString();
            nodes.add(uuid);
            creates.add(intent(uuid, CreateNode.newBuilder().setDriver("fake-hardware").build()));
        }
        sendAllAndAwait(creates, 201);
        for (String verb : LIFECYCLE) {
            List<NodeIntent> wave = new ArrayList<>();
            for (String uuid : nodes) {
                NodeIntent intent = intent(uuid, ProvisionAction.newBuilder().setTarget(verb).build());
                wave.add(intent);
                wave.add(intent); // a redelivery: answered again, applied once
            }
            Collections.shuffle(wave);
            sendAllAndAwait(wave, 202);
            awaitAll(nodes, STABLE_AFTER.get(verb));
        }
        Map<String, List<NodeEvent>> events = eventsByNode(Set.copyOf(nodes), NODES * 10);
        for (String uuid : nodes) {
            List<String> path = events.get(uuid).stream().map(e -> e.getFromState() + " -" + e.getEvent() + "-> " + e.getToState()).toList();
            assertEquals(List.of("null -create-> enroll", "enroll -manage-> verifying", "verifying -done-> manageable",
                    "manageable -provide-> cleaning", "cleaning -done-> available", "available -deploy-> deploying",
                    "deploying -done-> active", "active -delete-> deleting", "deleting -clean-> cleaning",
                    "cleaning -done-> available"), path, "node " + uuid);
        }
        assertEquals(2, Integer.parseInt(query("SELECT count(*) FROM conductors")), "both conductors heartbeat");
        assertTrue(Integer.parseInt(query("SELECT count(DISTINCT conductor) FROM nodes")) == 2,
                "both conductors did work: the group shares the partitions");
    }

    @Test
    @Order(2)
    void killingAConductorMidCleaningLosesNothingAndTheSurvivorTakesOver() throws Exception {
        List<String> nodes = new ArrayList<>();
        List<NodeIntent> creates = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            String uuid = UUID.randomUUID().toString();
            nodes.add(uuid);
            creates.add(intent(uuid, CreateNode.newBuilder().setDriver("fake-hardware")
                    .setDriverInfo("{\"fake_step_seconds\": {\"deploy.erase_devices\": 4}}").build()));
        }
        sendAllAndAwait(creates, 201);
        sendAllAndAwait(nodes.stream().map(n -> intent(n, ProvisionAction.newBuilder().setTarget("manage").build())).toList(), 202);
        awaitAll(nodes, "manageable");
        sendAllAndAwait(nodes.stream().map(n -> intent(n, ProvisionAction.newBuilder().setTarget("provide").build())).toList(), 202);
        awaitAll(nodes, "clean wait");

        ChildJvm victim = conductors.get("conductor-a");
        victim.process().destroyForcibly(); // SIGKILL: no shutdown hook, no goodbye to the group
        victim.process().waitFor();
        long killed = System.nanoTime();
        // Intents sent while a conductor is dead are not lost: the survivor takes the partitions and answers.
        List<NodeIntent> duringOutage = nodes.stream().limit(10)
                .map(n -> intent(n, SetMaintenance.newBuilder().setMaintenance(false).build())).toList();
        duringOutage.forEach(i -> kafka.send(Topic.NODE_INTENTS.topicName(), i.getNodeUuid(), i));

        await("every node ends stable or failed, and nobody holds any").atMost(WAIT).pollInterval(Duration.ofMillis(500))
                .until(() -> query("SELECT count(*) FROM nodes WHERE provision_state NOT IN ('available', 'clean failed')"
                        + " OR reservation IS NOT NULL"), equalTo("0"));
        await("the dead conductor taken over").atMost(WAIT).pollInterval(Duration.ofMillis(200))
                .until(() -> query("SELECT count(*) FROM conductors WHERE hostname = 'conductor-a'"), equalTo("0"));
        Duration takeover = Duration.ofNanos(System.nanoTime() - killed);
        assertTrue(takeover.compareTo(Duration.ofSeconds(5 + 1 + 4)) < 0, "taken over " + takeover + " after the kill");
        awaitResults(duringOutage, 202);
    }

    private void sendAllAndAwait(List<NodeIntent> intents, int code) {
        intents.forEach(i -> kafka.send(Topic.NODE_INTENTS.topicName(), i.getNodeUuid(), i));
        awaitResults(intents, code);
    }

    private void awaitResults(List<NodeIntent> intents, int code) {
        Set<String> wanted = intents.stream().map(NodeIntent::getIntentId).collect(Collectors.toSet());
        List<IntentResult> results = kafka.<IntentResult>read(Topic.INTENT_RESULTS.topicName(), WAIT,
                        records -> records.stream().map(r -> r.value().getIntentId()).collect(Collectors.toSet()).containsAll(wanted))
                .stream().map(ConsumerRecord::value).filter(r -> wanted.contains(r.getIntentId())).toList();
        for (IntentResult result : results) {
            assertEquals(code, result.getCode(), result.getNodeUuid() + ": " + result.getErrorMessage());
        }
        assertEquals(wanted, results.stream().map(IntentResult::getIntentId).collect(Collectors.toSet()));
    }

    private void awaitAll(List<String> nodes, String state) throws Exception {
        String in = nodes.stream().map(n -> "'" + n + "'").collect(Collectors.joining(","));
        String there = "provision_state = '" + state + "' AND reservation IS NULL";
        // how many are there, and what the others are (the message when the wait times out)
        await("every node " + state).atMost(WAIT).pollInterval(Duration.ofMillis(200)).until(() -> query(
                "SELECT count(*) FILTER (WHERE " + there + ") || ' of " + nodes.size() + "; not yet: ' || coalesce(string_agg("
                        + "provision_state || ' ' || coalesce(last_error, ''), '; ') FILTER (WHERE NOT (" + there + ")), '')"
                        + " FROM nodes WHERE uuid IN (" + in + ")"), startsWith(nodes.size() + " of "));
    }

    private Map<String, List<NodeEvent>> eventsByNode(Set<String> nodes, int expected) {
        return kafka.<NodeEvent>read(Topic.NODE_EVENTS.topicName(), WAIT,
                        records -> records.stream().filter(r -> nodes.contains(r.key())).count() >= expected)
                .stream().filter(r -> nodes.contains(r.key()))
                .collect(Collectors.groupingBy(ConsumerRecord::key, Collectors.mapping(ConsumerRecord::value, Collectors.toList())));
    }

    private static NodeIntent intent(String uuid, Object command) {
        return NodeIntent.newBuilder().setIntentId(UUID.randomUUID().toString()).setNodeUuid(uuid)
                .setRequester("cluster-test").setRequestedAt(Instant.now()).setCommand(command)
                .setPrincipal(io.ironflow.policy.IntentRules.toAvro(
                        new io.ironflow.policy.Principal("cluster-test", null, java.util.Set.of("admin"), true))).build();
    }

    private String query(String sql) throws SQLException {
        try (var connection = DriverManager.getConnection(infrastructure.postgres().jdbcUrl(), "ironflow",
                infrastructure.postgres().ownerPassword());
                var rs = connection.createStatement().executeQuery(sql)) {
            rs.next();
            return rs.getString(1);
        }
    }
}
