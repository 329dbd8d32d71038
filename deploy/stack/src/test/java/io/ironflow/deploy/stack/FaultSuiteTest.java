package io.ironflow.deploy.stack;

import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ironflow.deploy.infra.ChildJvm;
import io.ironflow.deploy.infra.EmbeddedPostgresServer;
import io.ironflow.deploy.infra.Infrastructure;
import io.ironflow.deploy.infra.IntentKeyring;
import io.ironflow.deploy.infra.KafkaBroker;
import io.ironflow.deploy.infra.Ports;
import io.ironflow.deploy.infra.SchemaRegistry;
import io.ironflow.deploy.testing.KafkaTestClient;
import io.ironflow.deploy.testing.TestDirectories;
import io.ironflow.events.IntentResult;
import io.ironflow.events.NodeEvent;
import io.ironflow.events.NodeIntent;
import io.ironflow.events.ValidateNode;
import io.ironflow.schemas.Topic;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * The fault suite (Maven profile {@code faults}): the real processes (Kafka, PostgreSQL, the registry, the API
 * and two conductors), operators on the REST API doing what operators do (valid and invalid verbs, PATCH with
 * wrong types, maintenance, power, DELETE) while the suite kills and restarts the parts under them. Each
 * scenario ends by checking the invariants: every request answered, no 500 ever and no 503 once recovered,
 * every intent processed exactly once (none lost, none applied twice), every announced transition an edge of
 * Ironic's table, no reservation or open transaction left, and each node's node-events replaying to its row.
 * Each prints one {@code FAULTS} line with its figures.
 */
@Tag("faults")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class FaultSuiteTest {

    /** {@link #motion} when nothing moves. */
    private static final String AT_REST = "intents unconsumed {}, outbox rows 0, nodes busy 0";

    private static final int OPERATORS = Integer.getInteger("faults.operators", 50);
    private static final Duration CHAOS = Duration.ofSeconds(Long.getLong("faults.chaos.seconds", 120));
    private static final Duration FAULT_LOAD = Duration.ofSeconds(Long.getLong("faults.fault.seconds", 45));
    /** Requests that start this long after a fault is repaired must not be 503 (the API's own wait is 10 s). */
    private static final Duration RECOVERY = Duration.ofSeconds(40);
    private static final Pattern UUID_FIELD = Pattern.compile("\"uuid\"\\s*:\\s*\"([0-9a-f-]{36})\"");
    private static final Pattern STATE_FIELD = Pattern.compile("\"provision_state\"\\s*:\\s*\"([^\"]+)\"");
    private static final String[] VERBS = {"manage", "provide", "active", "deleted", "rebuild", "inspect", "clean",
            "abort", "rescue", "unrescue", "adopt", "undeploy", "deploy", "bogus"};
    private static final Map<String, String[]> NEXT = Map.of(
            "enroll", new String[] {"manage"},
            "manageable", new String[] {"provide", "inspect", "clean"},
            "available", new String[] {"active", "manage"},
            "active", new String[] {"deleted", "rebuild", "rescue"},
            "rescue", new String[] {"unrescue"},
            "deploy failed", new String[] {"deleted"},
            "clean failed", new String[] {"manage"},
            "inspect failed", new String[] {"manage"},
            "rescue failed", new String[] {"unrescue"});
    private static final String[] BAD_PATCHES = {
            "[{\"op\":\"replace\",\"path\":\"/name\",\"value\":5}]",
            "[{\"op\":\"add\",\"path\":\"/driver_info\",\"value\":\"text\"}]",
            "[{\"op\":\"add\",\"path\":\"/properties\",\"value\":[1,2]}]",
            "[{\"op\":\"add\",\"path\":\"/retired\",\"value\":5}]",
            "[{\"op\":\"add\",\"path\":\"/description\",\"value\":{\"a\":1}}]",
            "[{\"op\":\"add\",\"path\":\"/instance_uuid\",\"value\":\"not-a-uuid\"}]",
            "[{\"op\":\"move\",\"path\":\"/name\",\"from\":\"/x\"}]",
            "{\"not\":\"a patch\"}", "[", ""};

    private final Path dataDir = Path.of("target", "fault-suite-" + java.util.UUID.randomUUID()).toAbsolutePath();
    private final Path home = Path.of(System.getProperty("ironflow.home"));
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final Map<String, ChildJvm> services = new LinkedHashMap<>();
    private final Map<String, Integer> ports = new HashMap<>();
    private final List<String> figures = new ArrayList<>();
    private Infrastructure infrastructure;
    private Infrastructure.Settings settings;
    private KafkaBroker kafkaAfterRestart;
    private EmbeddedPostgresServer postgresAfterRestart;
    private SchemaRegistry registryAfterRestart;
    private KafkaTestClient kafka;

    /** One request and what came of it; status -1: no answer (the client gave up or could not connect). */
    /** The intent a timed-out write's 503 names (IntentGateway's message). */
    private static final Pattern TIMED_OUT_INTENT = Pattern.compile("No conductor answered request ([0-9a-f-]{36}) for node");

    record Call(Instant start, Instant end, String what, int status, String body) {
    }

    @BeforeAll
    void up() throws Exception {
        settings = Infrastructure.Settings.freePorts(dataDir, home.resolve("deploy/schema-registry/target/apicurio-registry-runner.jar"))
                .durably(); // what survives a crash is what this suite checks
        infrastructure = Infrastructure.start(settings);
        kafka = new KafkaTestClient(infrastructure.kafka().bootstrapServers(), infrastructure.registry().apiUrl())
                .signingIntentsWith(Path.of(IntentKeyring.at(dataDir.resolve("intent-keys")).testServiceConfig()
                        .get("ironflow.intents.signing-key")));
        for (String name : List.of("conductor-a", "conductor-b", "api-service")) {
            ports.put(name, Ports.free(1)[0]);
            start(name);
        }
    }

    @AfterAll
    void down() {
        System.out.println(String.join("\n", figures));
        if (kafka != null) {
            kafka.close();
        }
        services.values().forEach(ChildJvm::close);
        for (AutoCloseable part : new AutoCloseable[] {registryAfterRestart, postgresAfterRestart, kafkaAfterRestart}) {
            try {
                if (part != null) {
                    part.close();
                }
            } catch (Exception e) {
                // shutting down
            }
        }
        if (infrastructure != null) {
            infrastructure.close();
        }
        keepLogs();
        TestDirectories.deleteRecursively(dataDir);
    }

    @Test
    @Order(1)
    void operatorsDoingEverythingAtOnce() throws Exception {
        scenario("chaos", CHAOS, null, null);
    }

    @Test
    @Order(2)
    void killingOneOfTwoConductorsUnderLoad() throws Exception {
        scenario("kill -9 one of two conductors", FAULT_LOAD, () -> kill("conductor-a"), () -> start("conductor-a"));
    }

    @Test
    @Order(3)
    void killingEveryConductorUnderLoad() throws Exception {
        scenario("kill -9 the only conductors", FAULT_LOAD, () -> {
            kill("conductor-a");
            kill("conductor-b");
        }, () -> {
            start("conductor-a");
            start("conductor-b");
        });
    }

    @Test
    @Order(4)
    void restartingPostgresqlUnderLoad() throws Exception {
        scenario("PostgreSQL restart", FAULT_LOAD, () -> postgres().close(),
                () -> postgresAfterRestart = EmbeddedPostgresServer.start(dataDir, settings.postgresPort(), settings.durable()));
    }

    @Test
    @Order(5)
    void restartingTheBrokerUnderLoad() throws Exception {
        scenario("broker restart", FAULT_LOAD, () -> broker().close(), () -> kafkaAfterRestart = KafkaBroker.start(dataDir,
                settings.kafkaPort(), settings.kafkaControllerPort()));
    }

    @Test
    @Order(6)
    void theRegistryDownUnderLoad() throws Exception {
        // conductor-a restarts while the registry is away, so it has no writer schema cached: the intents it takes
        // wait for the registry (UndecodableRecords) instead of being dead-lettered as undecodable
        scenario("registry down, a conductor restarted", FAULT_LOAD, () -> {
            registry().close();
            kill("conductor-a");
            launch("conductor-a");
        }, () -> {
            registryAfterRestart = SchemaRegistry.launch(settings.registryJar(), dataDir, settings.registryPort()).awaitReady();
            awaitReady("conductor-a");
        });
    }

    @Test
    @Order(7)
    void duplicatedReorderedAndPoisonIntentsFromAnExternalProducer() throws Exception {
        List<NodeIntent> sent = intents();
        List<NodeIntent> again = new ArrayList<>(sent.subList(Math.max(0, sent.size() - 300), sent.size()));
        java.util.Collections.reverse(again);
        String before = query("SELECT string_agg(uuid || ':' || revision, ',' ORDER BY uuid) FROM nodes");
        String poisonKey = java.util.UUID.randomUUID().toString();
        kafka.sendRaw(Topic.NODE_INTENTS.topicName(), poisonKey, "poison".getBytes(StandardCharsets.UTF_8));
        again.forEach(intent -> kafka.send(Topic.NODE_INTENTS.topicName(), intent.getNodeUuid(), intent));
        kafka.deadLetter(Topic.NODE_INTENTS_DLQ.topicName(), poisonKey, Duration.ofSeconds(60)); // the poison was dead-lettered
        // Every redelivered intent is answered again (results agree, checked below) and applies nothing.
        Set<String> ids = new HashSet<>(again.stream().map(NodeIntent::getIntentId).toList());
        await("every redelivered intent answered again").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofSeconds(1))
                .until(() -> answeredTwice(ids), answered -> answered == ids.size());
        assertEquals(before, query("SELECT string_agg(uuid || ':' || revision, ',' ORDER BY uuid) FROM nodes"),
                "duplicates changed no node");
        figures.add(checkInvariants("duplicates, reordering, poison", List.of(), null, null));
    }

    // ---------------------------------------------------------------------------------------------------------

    private interface Step {
        void run() throws Exception;
    }

    /** Runs the operators for {@code load}; a third in, {@code fault}; two thirds in, {@code repair}. */
    private void scenario(String name, Duration load, Step fault, Step repair) throws Exception {
        ConcurrentLinkedQueue<Call> calls = new ConcurrentLinkedQueue<>();
        Instant end = Instant.now().plus(load);
        ExecutorService operators = Executors.newFixedThreadPool(OPERATORS);
        for (int i = 0; i < OPERATORS; i++) {
            long seed = name.hashCode() * 31L + i;
            operators.submit(() -> operate(new Random(seed), end, calls));
        }
        Instant faultAt = null;
        Instant repairedAt = null;
        if (fault != null) {
            Thread.sleep(load.toMillis() / 3);
            faultAt = Instant.now();
            fault.run();
            Thread.sleep(load.toMillis() / 3);
            repair.run();
            repairedAt = Instant.now();
        }
        operators.shutdown();
        assertTrue(operators.awaitTermination(load.toSeconds() + 120, TimeUnit.SECONDS), "the operators finished");
        figures.add(checkInvariants(name, List.copyOf(calls), faultAt, repairedAt));
    }

    /** One operator: its own node at a time, mostly driven through its life, with the mistakes operators make. */
    private void operate(Random random, Instant end, ConcurrentLinkedQueue<Call> calls) {
        String node = null;
        while (Instant.now().isBefore(end)) {
            if (node == null) {
                Call created = call(calls, "POST", "/v1/nodes", "{\"driver\":\"fake-hardware\",\"name\":\"op-"
                        + java.util.UUID.randomUUID() + "\"}", "create");
                Matcher uuid = UUID_FIELD.matcher(created.body());
                node = created.status() == 201 && uuid.find() ? uuid.group(1) : null;
                continue;
            }
            String path = "/v1/nodes/" + node;
            int roll = random.nextInt(100);
            if (roll < 55) {
                Call shown = call(calls, "GET", path, null, "get");
                Matcher state = STATE_FIELD.matcher(shown.body());
                if (shown.status() == 404) {
                    node = null;
                } else if (state.find() && NEXT.containsKey(state.group(1))) {
                    String[] next = NEXT.get(state.group(1));
                    String verb = next[random.nextInt(next.length)];
                    call(calls, "PUT", path + "/states/provision", verbBody(verb), "verb " + verb);
                }
            } else if (roll < 63) {
                String verb = VERBS[random.nextInt(VERBS.length)];
                call(calls, "PUT", path + "/states/provision", verbBody(verb), "any verb " + verb);
            } else if (roll < 73) {
                call(calls, "PATCH", path, BAD_PATCHES[random.nextInt(BAD_PATCHES.length)], "bad patch");
            } else if (roll < 78) {
                call(calls, "PATCH", path, "[{\"op\":\"add\",\"path\":\"/description\",\"value\":\"d" + random.nextInt()
                        + "\"}]", "patch");
            } else if (roll < 83) {
                if (random.nextBoolean()) {
                    call(calls, "PUT", path + "/maintenance", "{\"reason\":\"fault suite\"}", "maintenance on");
                } else {
                    call(calls, "DELETE", path + "/maintenance", null, "maintenance off");
                }
            } else if (roll < 88) {
                call(calls, "PUT", path + "/states/power", random.nextBoolean() ? "{\"target\":\"power on\"}"
                        : "{\"target\":\"power off\"}", "power");
            } else if (roll < 95) {
                if (call(calls, "DELETE", path, null, "delete").status() == 204) {
                    node = null;
                }
            } else {
                call(calls, "PUT", path + "/states/provision", random.nextBoolean() ? "{\"target\": 5}" : "not json",
                        "bad verb body");
            }
        }
    }

    private static String verbBody(String verb) {
        return switch (verb) {
            case "clean" -> "{\"target\":\"clean\",\"clean_steps\":[{\"interface\":\"deploy\",\"step\":\"erase_devices_metadata\"}]}";
            case "rescue" -> "{\"target\":\"rescue\",\"rescue_password\":\"s3cret\"}";
            default -> "{\"target\":\"" + verb + "\"}";
        };
    }

    private Call call(ConcurrentLinkedQueue<Call> calls, String method, String path, String body, String what) {
        Instant start = Instant.now();
        Call call;
        try {
            HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + ports.get("api-service") + path))
                    .timeout(Duration.ofSeconds(30))
                    .header("X-OpenStack-Ironic-API-Version", "1.65")
                    .header("Content-Type", "application/json")
                    .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
            HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
            call = new Call(start, Instant.now(), method + " " + what, response.statusCode(), response.body());
        } catch (Exception e) {
            call = new Call(start, Instant.now(), method + " " + what, -1, e.toString());
        }
        calls.add(call);
        return call;
    }

    /** The services' logs outlive the run, in target/fault-suite-logs, for whoever reads a failure. */
    private void keepLogs() {
        Path kept = Path.of("target", "fault-suite-logs");
        try (var logs = Files.list(dataDir.resolve("logs"))) {
            Files.createDirectories(kept);
            for (Path log : logs.toList()) {
                Files.copy(log, kept.resolve(log.getFileName()), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (java.io.IOException e) {
            System.out.println("fault suite: logs not kept: " + e);
        }
    }

    // ---------------------------------------------------------------------------------------------------------

    /** Waits for the system to come to rest, checks every invariant, and returns the scenario's figures. */
    private String checkInvariants(String name, List<Call> calls, Instant faultAt, Instant repairedAt) throws Exception {
        awaitRest();
        long unanswered = calls.stream().filter(c -> c.status() == -1).count();
        List<Call> errors500 = calls.stream().filter(c -> c.status() >= 500 && c.status() != 503).toList();
        List<Call> unavailable = calls.stream().filter(c -> c.status() == 503).toList();
        Instant recoveredBy = repairedAt == null ? null : repairedAt.plus(RECOVERY);
        List<Call> lateUnavailable = unavailable.stream()
                .filter(c -> recoveredBy == null || c.start().isAfter(recoveredBy)).toList();
        Instant last503 = unavailable.stream().map(Call::end).max(Instant::compareTo).orElse(null);
        String recovery = faultAt == null ? "-" : last503 == null || last503.isBefore(repairedAt) ? "0 s"
                : Duration.between(repairedAt, last503).toMillis() / 1000.0 + " s";

        // Intents: each one processed exactly once or dead-lettered, every result of it the same answer.
        List<NodeIntent> intents = intents().stream().filter(i -> !(i.getCommand() instanceof ValidateNode)).toList();
        Set<String> processed = new HashSet<>(queryAll("SELECT intent_id FROM processed_intents"));
        Map<String, String> deadLettered = new HashMap<>(); // by node: the dead letter's reason
        for (ConsumerRecord<String, byte[]> letter : kafka.readAllRaw(Topic.NODE_INTENTS_DLQ.topicName(), Duration.ofSeconds(30))) {
            var reason = letter.headers().lastHeader("dead-letter-reason");
            deadLettered.put(letter.key(), reason == null ? "?" : new String(reason.value(), StandardCharsets.UTF_8));
        }
        Map<String, Set<Integer>> answers = new HashMap<>();
        for (ConsumerRecord<String, IntentResult> r : kafka.<IntentResult>readAll(Topic.INTENT_RESULTS.topicName(), Duration.ofSeconds(60))) {
            answers.computeIfAbsent(r.value().getIntentId(), k -> new HashSet<>()).add(r.value().getCode());
        }
        List<String> lost = intents.stream()
                .filter(i -> !processed.contains(i.getIntentId()) || !answers.containsKey(i.getIntentId()))
                .map(i -> i.getIntentId() + " (" + i.getCommand().getClass().getSimpleName() + " on " + i.getNodeUuid()
                        + (processed.contains(i.getIntentId()) ? ", processed" : ", not processed")
                        + (answers.containsKey(i.getIntentId()) ? ", answered" : ", no result")
                        + (deadLettered.containsKey(i.getNodeUuid()) ? ", dead-lettered: " + deadLettered.get(i.getNodeUuid()) : "") + ")")
                .distinct().toList();
        List<String> disagreeing = answers.entrySet().stream().filter(e -> e.getValue().size() > 1).map(Map.Entry::getKey).toList();

        // Transitions: each an edge of Ironic's table, none applied twice, each node's history ending at its row.
        Set<String> edges = edges();
        Map<String, List<NodeEvent>> histories = new LinkedHashMap<>();
        Set<String> published = new HashSet<>();
        for (ConsumerRecord<String, NodeEvent> r : kafka.<NodeEvent>readAll(Topic.NODE_EVENTS.topicName(), Duration.ofSeconds(60))) {
            if (published.add(r.value().getEventId())) { // the relay publishes at least once: a repeat is the same event
                histories.computeIfAbsent(r.key(), k -> new ArrayList<>()).add(r.value());
            }
        }
        List<String> offTable = new ArrayList<>();
        List<String> appliedTwice = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (List<NodeEvent> history : histories.values()) {
            for (NodeEvent e : history) {
                if (e.getFromState() != null && e.getToState() != null && !edges.contains(e.getFromState() + "|" + e.getEvent() + "|" + e.getToState())) {
                    offTable.add(e.getNodeUuid() + ": " + e.getFromState() + " -" + e.getEvent() + "-> " + e.getToState());
                }
                if (e.getIntentId() != null && !seen.add(e.getIntentId() + "|" + e.getFromState() + "|" + e.getEvent())) {
                    appliedTwice.add(e.getIntentId());
                }
            }
        }
        Map<String, String> rows = new HashMap<>();
        for (String row : queryAll("SELECT uuid || '|' || provision_state FROM nodes")) {
            rows.put(row.substring(0, 36), row.substring(37));
        }
        List<String> notReplaying = new ArrayList<>();
        rows.forEach((uuid, state) -> {
            List<NodeEvent> history = histories.get(uuid);
            String replayed = history == null ? null : history.get(history.size() - 1).getToState();
            if (!state.equals(replayed)) {
                notReplaying.add(uuid + ": row " + state + ", events " + replayed);
            }
        });

        // A 503 for a write no conductor answered in time, and none had recorded (the API looked), means it was not
        // applied: its intent expired. Counted, not asserted: an attempt started just before notAfter may still
        // commit after the API looked. A 503 whose record could not be read (the database away) is counted apart.
        Set<String> timedOut = new HashSet<>();
        Set<String> unknown = new HashSet<>();
        for (Call c : unavailable) {
            Matcher named = TIMED_OUT_INTENT.matcher(c.body());
            if (named.find()) {
                (c.body().contains("cannot be read") ? unknown : timedOut).add(named.group(1));
            }
        }
        Set<String> applied = new HashSet<>(queryAll("SELECT intent_id FROM processed_intents WHERE accepted"));
        long appliedAfter503 = timedOut.stream().filter(applied::contains).count();

        String reserved = query("SELECT count(*) FROM nodes WHERE reservation IS NOT NULL");
        String open = query("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
                + " AND state LIKE 'idle in transaction%' AND now() - state_change > interval '5 seconds'");
        String line = String.format("FAULTS %-32s requests=%d unanswered=%d 5xx(non-503)=%d 503=%d 503-after-recovery=%d"
                        + " recovered-after=%s 503-timed-out=%d 503-applied-anyway=%d 503-outcome-unknown=%d(%d applied)"
                        + " intents=%d lost=%d applied-twice=%d"
                        + " disagreeing-answers=%d off-table=%d not-replaying=%d reserved=%s open-transactions=%s",
                name, calls.size(), unanswered, errors500.size(), unavailable.size(), lateUnavailable.size(), recovery,
                timedOut.size(), appliedAfter503, unknown.size(), unknown.stream().filter(applied::contains).count(),
                intents.size(), lost.size(), appliedTwice.size(), disagreeing.size(), offTable.size(), notReplaying.size(),
                reserved, open);
        System.out.println(line);
        assertEquals(0, unanswered, "every request was answered: " + calls.stream().filter(c -> c.status() == -1).limit(5).toList());
        assertEquals(List.of(), errors500.stream().limit(5).toList(), "no 5xx other than 503");
        assertEquals(List.of(), lateUnavailable.stream().limit(5).toList(), "no 503 once recovered");
        assertEquals(List.of(), lost.stream().limit(10).toList(), "no intent lost");
        assertEquals(List.of(), appliedTwice, "no transition applied twice");
        assertEquals(List.of(), disagreeing, "an intent answered again gets the same answer");
        assertEquals(List.of(), offTable, "every transition is an edge of the table");
        assertEquals(List.of(), notReplaying.stream().limit(5).toList(), "each node's events replay to its row");
        assertEquals("0", reserved, "no reservation outlives its work");
        assertEquals("0", open, "no transaction stays open");
        return line;
    }

    /**
     * Nothing moving: the conductors have committed every intent on the topic (those queued while no conductor
     * ran are taken after the repair, and the outbox is empty until they are), then no node in a transient state
     * and nothing left in the outbox.
     */
    private void awaitRest() throws Exception {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker().bootstrapServers()))) {
            await("the stack at rest").atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofSeconds(1))
                    // the database or the broker may still be coming back
                    .ignoreExceptionsMatching(e -> e instanceof SQLException || e instanceof ExecutionException
                            || e instanceof TimeoutException)
                    .until(() -> motion(admin), equalTo(AT_REST));
        }
        Thread.sleep(2000); // results in flight reach the topics
    }

    /** What still moves ({@link #AT_REST} when nothing does); a wait that times out reports the last of it. */
    private String motion(Admin admin) throws Exception {
        return "intents unconsumed " + unconsumedIntents(admin) + ", outbox rows " + query("SELECT count(*) FROM outbox")
                + ", nodes busy " + query("SELECT count(*) FROM nodes WHERE reservation IS NOT NULL"
                        + " OR provision_state LIKE '%ing' OR provision_state LIKE '%wait%'");
    }

    /** Intents on the topic past the conductors' committed offsets, by partition (only those behind). */
    private static Map<Integer, Long> unconsumedIntents(Admin admin) throws Exception {
        String topic = Topic.NODE_INTENTS.topicName();
        Map<TopicPartition, OffsetAndMetadata> committed = admin.listConsumerGroupOffsets("ironflow-conductor")
                .partitionsToOffsetAndMetadata().get(10, TimeUnit.SECONDS);
        Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
        for (var partition : admin.describeTopics(List.of(topic)).allTopicNames().get(10, TimeUnit.SECONDS).get(topic).partitions()) {
            latest.put(new TopicPartition(topic, partition.partition()), OffsetSpec.latest());
        }
        Map<Integer, Long> behind = new java.util.TreeMap<>();
        for (var end : admin.listOffsets(latest).all().get(10, TimeUnit.SECONDS).entrySet()) {
            OffsetAndMetadata at = committed.get(end.getKey());
            long lag = end.getValue().offset() - (at == null ? 0 : at.offset());
            if (lag != 0) {
                behind.put(end.getKey().partition(), lag);
            }
        }
        return behind;
    }

    private Set<String> edges() throws Exception {
        Set<String> edges = new HashSet<>();
        List<String> table = Files.readAllLines(home.resolve("conductor-service/src/test/resources/ironic-transitions.tsv"));
        for (String line : table.subList(1, table.size())) { // after the header
            String[] f = line.split("\t");
            if (f.length == 3) {
                edges.add(f[0] + "|" + f[1] + "|" + f[2]);
            }
        }
        return edges;
    }

    /** Every intent on the topic, as the conductor decodes them; the poison records among them are passed over. */
    private List<NodeIntent> intents() {
        return kafka.<NodeIntent>readAll(Topic.NODE_INTENTS.topicName(), Duration.ofSeconds(60)).stream()
                .map(ConsumerRecord::value).toList();
    }

    /** How many of {@code ids} have been answered at least twice. */
    private long answeredTwice(Set<String> ids) {
        Map<String, Integer> counts = resultCounts();
        return ids.stream().filter(id -> counts.getOrDefault(id, 0) >= 2).count();
    }

    private Map<String, Integer> resultCounts() {
        Map<String, Integer> counts = new HashMap<>();
        kafka.<IntentResult>readAll(Topic.INTENT_RESULTS.topicName(), Duration.ofSeconds(60))
                .forEach(r -> counts.merge(r.value().getIntentId(), 1, Integer::sum));
        return counts;
    }

    // ---------------------------------------------------------------------------------------------------------

    private void start(String name) throws Exception {
        launch(name);
        awaitReady(name);
    }

    /** Starts the service without waiting for it to be ready. */
    private void launch(String name) throws Exception {
        boolean conductor = name.startsWith("conductor");
        Map<String, String> config = new HashMap<>(serviceConfig());
        config.putAll(IntentKeyring.at(dataDir.resolve("intent-keys")).testServiceConfig());
        config.put("quarkus.http.port", String.valueOf(ports.get(name)));
        config.put("java.io.tmpdir", dataDir.toString());
        if (conductor) {
            config.putAll(Map.of("ironflow.conductor.name", name, "ironflow.conductor.heartbeat-interval", "1s",
                    "ironflow.conductor.heartbeat-timeout", "5s", "ironflow.conductor.call-back-sweep-interval", "1s",
                    "mp.messaging.incoming.node-intents.session.timeout.ms", "6000",
                    "mp.messaging.incoming.node-intents.heartbeat.interval.ms", "1000"));
        }
        Path jar = home.resolve((conductor ? "conductor-service" : name) + "/target/quarkus-app/quarkus-run.jar");
        ChildJvm jvm = ChildJvm.start(name, jar, List.of("-Xmx384m"), config, infrastructure.serviceEnvironment(), dataDir.resolve("logs").resolve(name + ".log"));
        services.put(name, jvm);
    }

    private void awaitReady(String name) throws Exception {
        services.get(name).awaitReady(URI.create("http://127.0.0.1:" + ports.get(name) + "/q/health/ready"), Duration.ofSeconds(120));
    }

    private Map<String, String> serviceConfig() {
        Map<String, String> config = new LinkedHashMap<>();
        config.put("kafka.bootstrap.servers", "127.0.0.1:" + settings.kafkaPort());
        config.put("mp.messaging.connector.smallrye-kafka.apicurio.registry.url",
                "http://127.0.0.1:" + settings.registryPort() + "/apis/registry/v2");
        config.put("quarkus.datasource.reactive.url", "postgresql://127.0.0.1:" + settings.postgresPort() + "/ironflow");
        config.put("quarkus.datasource.jdbc.url", jdbcUrl());
        return config;
    }

    private void kill(String name) throws Exception {
        ChildJvm jvm = services.remove(name);
        jvm.process().destroyForcibly(); // SIGKILL, mid-transaction under load
        jvm.process().waitFor();
    }

    private EmbeddedPostgresServer postgres() {
        return postgresAfterRestart != null ? postgresAfterRestart : infrastructure.postgres();
    }

    private KafkaBroker broker() {
        return kafkaAfterRestart != null ? kafkaAfterRestart : infrastructure.kafka();
    }

    private SchemaRegistry registry() {
        return registryAfterRestart != null ? registryAfterRestart : infrastructure.registry();
    }

    private String jdbcUrl() {
        return "jdbc:postgresql://127.0.0.1:" + settings.postgresPort() + "/ironflow";
    }

    private String query(String sql) throws SQLException {
        List<String> all = queryAll(sql);
        return all.isEmpty() ? null : all.get(0);
    }

    private List<String> queryAll(String sql) throws SQLException {
        try (var connection = DriverManager.getConnection(jdbcUrl(), "ironflow", postgres().ownerPassword());
                var rs = connection.createStatement().executeQuery(sql)) {
            List<String> values = new ArrayList<>();
            while (rs.next()) {
                values.add(rs.getString(1));
            }
            return values;
        }
    }
}
