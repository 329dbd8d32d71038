package io.ironflow.deploy.stack;

import static org.awaitility.Awaitility.await;
import static io.ironflow.deploy.stack.Matching.matching;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ironflow.deploy.infra.KafkaAccess;
import io.ironflow.deploy.infra.IntentKeyring;
import io.ironflow.deploy.infra.KafkaSecurity;
import io.ironflow.deploy.testing.KafkaTestClient;
import io.ironflow.deploy.testing.TestDirectories;
import io.ironflow.events.DeleteNode;
import io.ironflow.events.IntentResult;
import io.ironflow.events.NodeIntent;
import io.ironflow.events.ProvisionAction;
import io.ironflow.intents.KeyBinding;
import io.ironflow.policy.IntentRules;
import io.ironflow.policy.Principal;
import io.ironflow.schemas.Topic;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * The "done when" for authentication and secrets, in one stack started with {@code ./ironflow up --auth
 * http_basic}: the real {@code openstack baremetal} CLI with {@code OS_AUTH_TYPE=http_basic} (keystoneauth's
 * plugin) works for the generated admin through a node's whole life; a system reader's writes are refused 403 as
 * Ironic refuses them; a member of project demo lists only the node demo owns and gets 404 for the other. The
 * launcher prints where the credentials are and never a secret; the files holding them are 0600. A password
 * planted in driver_info and a config drive appear in no API answer, no record of any topic but node-intents (which
 * carries them to the conductor, and so must hold them: that proves the search finds them), no log file of the
 * data directory and nothing the launcher printed.
 * <p>The same stack is also {@code --secure} (what SecureStackTest proved on a stack of its own, one start fewer):
 * Kafka with SASL/SCRAM and ACLs, the registry with basic auth, every service with its own principal. A node goes
 * create, manage, provide, so every service's Kafka and registry traffic works under the ACLs; an external producer,
 * allowed to write intents, sends one whose caller lacks the right: it is answered 403 and changes nothing. No Kafka
 * password is printed or on a command line.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class AuthStackTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final String SECRET = "planted-" + UUID.randomUUID();
    private static final String CONFIG_DRIVE = "drive-" + UUID.randomUUID();
    private static final String SITE_PRODUCER = "site-automation";
    private static final Duration SETTLE = Duration.ofSeconds(90);

    private final Path dataDir = Path.of("target", "auth-test-" + UUID.randomUUID()).toAbsolutePath();
    /** Everything the API answered the CLI (stdout and stderr of every run), searched for the secrets at the end. */
    private final List<String> answers = new CopyOnWriteArrayList<>();
    private RunningStack stack;

    @BeforeAll
    void up() throws Exception {
        assertTrue(Files.isExecutable(OpenstackCli.OPENSTACK), OpenstackCli.OPENSTACK + " is missing (apt-get install python3-openstackclient python3-ironicclient)");
        stack = RunningStack.launch(dataDir, RunningStack.freePorts(), Map.of(), List.of("--auth", "http_basic",
                "--secure", "--kafka-intent-producer", SITE_PRODUCER)).awaitUp(Duration.ofSeconds(300));
    }

    @AfterAll
    void down() {
        if (stack != null) {
            stack.close();
        }
        TestDirectories.deleteRecursively(dataDir);
    }

    @Test
    @Order(1)
    void theLauncherSaysWhereTheCredentialsAreAndKeepsThemOwnerOnly() throws Exception {
        Path credentials = dataDir.resolve("auth/credentials.properties");
        assertTrue(stack.output.stream().anyMatch(l -> l.contains("Authentication") && l.contains("http_basic")
                && l.contains(credentials.toString())), String.join("\n", stack.output));
        assertTrue(stack.output.stream().anyMatch(l -> l.contains(dataDir.resolve("secrets/database.properties").toString())),
                "the database passwords' file is named");
        for (Path file : List.of(credentials, dataDir.resolve("auth/htpasswd"), dataDir.resolve("auth/roles.yaml"),
                dataDir.resolve("secrets/database.properties"))) {
            assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)), file.toString());
        }
        assertTrue(Files.readString(dataDir.resolve("auth/htpasswd")).lines().allMatch(l -> l.matches("[^:]+:\\$2y\\$10\\$.{53}")),
                "htpasswd -B entries");
        List<String> secrets = new ArrayList<>(values(credentials));
        secrets.addAll(values(dataDir.resolve("secrets/database.properties")));
        assertEquals(8, secrets.size(), "4 users' and 4 database roles' passwords (the superuser, the conductor's, the API's, the orchestrator's)");
        List<String> commandLines = Stream.concat(Stream.of(stack.launcher.toHandle()), stack.launcher.descendants())
                .map(p -> p.info().commandLine().orElse("")).toList();
        for (String secret : secrets) {
            assertTrue(secret.length() >= 32, "random, not chosen");
            assertTrue(stack.output.stream().noneMatch(l -> l.contains(secret)), "the launcher printed a secret");
            assertTrue(commandLines.stream().noneMatch(l -> l.contains(secret)), "a secret is on a command line");
        }
    }

    @Test
    @Order(2)
    void withoutCredentialsTheApiAnswers401ButItsVersionsAndHealthStayOpen() throws Exception {
        HttpResponse<String> refused = get("/v1/nodes", null);
        assertEquals(401, refused.statusCode(), refused.body());
        assertTrue(refused.headers().firstValue("WWW-Authenticate").orElse("").startsWith("Basic"), refused.headers().toString());
        assertTrue(JSON.readTree(refused.body()).has("error_message"), "Ironic's error body: " + refused.body());
        HttpResponse<String> wrong = get("/v1/nodes", "Basic " + java.util.Base64.getEncoder()
                .encodeToString("admin:guess".getBytes(StandardCharsets.UTF_8)));
        assertEquals(401, wrong.statusCode(), wrong.body());
        assertEquals(200, get("/v1", null).statusCode());
        assertEquals(200, get("/q/health/live", null).statusCode());
    }

    @Test
    @Order(2)
    void theOrchestratorTheAllocatorAndTheConductorAuthenticateLikeTheApiButAnswerInTheirOwnFormat() throws Exception {
        String teardown = "http://127.0.0.1:" + stack.ports.get("teardown");
        HttpResponse<String> refused = send(teardown + "/api/v1.0/actions", "GET", null);
        assertEquals(401, refused.statusCode(), refused.body());
        assertTrue(refused.headers().firstValue("WWW-Authenticate").orElse("").startsWith("Basic"));
        JsonNode status = JSON.readTree(refused.body());
        assertEquals("Status", status.path("kind").asText(), "Airship's status document: " + refused.body());
        assertEquals("Failure", status.path("status").asText());
        assertEquals(401, status.path("code").asInt());
        assertEquals(200, send(teardown + "/api/v1.0/actions", "GET", stack.basic("reader")).statusCode());
        HttpResponse<String> write = send(teardown + "/api/v1.0/actions", "POST", stack.basic("reader"));
        assertEquals(403, write.statusCode(), write.body());
        assertEquals(403, JSON.readTree(write.body()).path("code").asInt());
        assertEquals(403, send(teardown + "/api/v1.0/actions", "GET", stack.basic("member")).statusCode(),
                "a project's member has no business with the site");
        // The action's user is who authenticated, as Shipyard takes it from the token, whatever header is sent.
        HttpResponse<String> created = HTTP.send(HttpRequest.newBuilder(URI.create(teardown + "/api/v1.0/actions"))
                .timeout(Duration.ofSeconds(30)).header("Authorization", stack.basic("admin")).header("X-User-Name", "mallory")
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(
                        "{\"name\":\"redeploy_server\",\"parameters\":{\"target_nodes\":[\"auth-ghost\"]}}")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(201, created.statusCode(), created.body());
        String action = JSON.readTree(created.body()).path("id").asText();
        HttpResponse<String> read = send(teardown + "/api/v1.0/actions/" + action, "GET", stack.basic("reader"));
        assertEquals("admin", JSON.readTree(read.body()).path("user").asText(), read.body());
        assertEquals(200, send(teardown + "/q/health/live", "GET", null).statusCode());

        String allocator = "http://127.0.0.1:" + stack.ports.get("oneview");
        HttpResponse<String> admin = send(allocator + "/admin/migrate-to-dynamic-allocation", "POST", null);
        assertEquals(401, admin.statusCode(), admin.body());
        assertTrue(JSON.readTree(admin.body()).has("error"), admin.body());
        assertEquals(401, send(allocator + "/q/metrics", "GET", null).statusCode());
        assertEquals(200, send(allocator + "/q/metrics", "GET", stack.basic("reader")).statusCode());
        assertEquals(200, send(allocator + "/q/health/ready", "GET", null).statusCode());
        String conductor = "http://127.0.0.1:" + stack.ports.get("conductor");
        assertEquals(401, send(conductor + "/q/metrics", "GET", null).statusCode());
        assertEquals(200, send(conductor + "/q/metrics", "GET", stack.basic("reader")).statusCode());
        assertEquals(200, send(conductor + "/q/health/ready", "GET", null).statusCode());
        String dashboard = "http://127.0.0.1:" + stack.ports.get("dashboard");
        HttpResponse<String> page = send(dashboard + "/", "GET", null);
        assertEquals(401, page.statusCode(), page.body());
        assertTrue(page.headers().firstValue("WWW-Authenticate").orElse("").startsWith("Basic"), "a browser prompts");
        assertEquals(200, send(dashboard + "/api/summary", "GET", stack.basic("reader")).statusCode());
        assertEquals(403, send(dashboard + "/api/summary", "GET", stack.basic("member")).statusCode(),
                "the board shows every node: not for a project's member");
        assertEquals(200, send(dashboard + "/q/health/live", "GET", null).statusCode());
        IronflowRun migrated = IronflowRun.of("oneview-migrate", "--dry-run", "--allocator", allocator, "--data-dir", dataDir.toString());
        assertEquals(0, migrated.code(), "./ironflow oneview-migrate as the stack's admin: " + migrated.printed());
    }

    @Test
    @Order(3)
    void theAdminDrivesANodeThroughItsLifeWithTheCli() throws Exception {
        JsonNode owned = cli("admin", "baremetal", "node", "create", "--driver", "fake-hardware", "--name", "owned",
                "--driver-info", "ipmi_address=10.0.0.9", "--driver-info", "ipmi_password=" + SECRET, "-f", "json").ok().json();
        assertEquals("******", owned.path("driver_info").path("ipmi_password").asText(), owned.toString());
        cli("admin", "baremetal", "node", "create", "--driver", "fake-hardware", "--name", "other").ok();
        // this client refuses --owner on create; Ironic's own way is to set it after
        cli("admin", "baremetal", "node", "set", "owned", "--owner", StackAuth.DEMO_PROJECT).ok();
        cli("admin", "baremetal", "node", "manage", "owned", "--wait", "60").ok();
        cli("admin", "baremetal", "node", "provide", "owned", "--wait", "60").ok();
        cli("admin", "baremetal", "node", "deploy", "owned", "--config-drive",
                "{\"meta_data\": {\"admin_pass\": \"" + CONFIG_DRIVE + "\"}}", "--wait", "60").ok();
        JsonNode active = cli("admin", "baremetal", "node", "show", "owned", "-f", "json").ok().json();
        assertEquals("active", active.path("provision_state").asText());
        assertEquals(StackAuth.DEMO_PROJECT, active.path("owner").asText());
    }

    @Test
    @Order(4)
    void aSystemReaderSeesEveryNodeButItsWritesAreRefused403() throws Exception {
        JsonNode list = cli("reader", "baremetal", "node", "list", "-f", "json").ok().json();
        assertEquals(List.of("other", "owned"), names(list));
        OpenstackCli.Run update = cli("reader", "baremetal", "node", "set", "other", "--extra", "team=a").failed();
        assertTrue(update.message().contains("HTTP 403"), update.toString());
        OpenstackCli.Run delete = cli("reader", "baremetal", "node", "delete", "other").failed();
        assertTrue(delete.message().contains("403"), delete.toString());
        OpenstackCli.Run power = cli("reader", "baremetal", "node", "power", "off", "owned").failed();
        assertTrue(power.message().contains("HTTP 403"), power.toString());
        assertEquals("{}", cli("admin", "baremetal", "node", "show", "other", "-f", "json").ok().json().path("extra").toString(),
                "nothing changed");
    }

    @Test
    @Order(5)
    void aProjectMemberListsOnlyItsProjectsNodesAndGets404ForTheOthers() throws Exception {
        assertEquals(List.of("owned"), names(cli("member", "baremetal", "node", "list", "-f", "json").ok().json()));
        OpenstackCli.Run hidden = cli("member", "baremetal", "node", "show", "other").failed();
        assertTrue(hidden.message().contains("HTTP 404") && hidden.message().contains("could not be found"), hidden.toString());
        assertEquals("active", cli("member", "baremetal", "node", "show", "owned", "-f", "json").ok().json()
                .path("provision_state").asText(), "the owner's member sees its node");
        OpenstackCli.Run delete = cli("member", "baremetal", "node", "delete", "owned").failed();
        assertTrue(delete.message().contains("403"), "only a system admin deletes: " + delete);
    }

    @Test
    @Order(6)
    void theAdminUndeploysAndDeletesBothNodes() throws Exception {
        cli("admin", "baremetal", "node", "undeploy", "owned", "--wait", "60").ok();
        cli("admin", "baremetal", "node", "delete", "owned", "other").ok();
        assertEquals(List.of(), names(cli("admin", "baremetal", "node", "list", "-f", "json").ok().json()));
    }

    @Test
    @Order(7)
    void thePlantedSecretsAppearNowhereButOnTheIntentsTopic() throws Exception {
        List<String> planted = List.of(SECRET, CONFIG_DRIVE);
        try (KafkaTestClient kafka = asKafkaAdmin()) {
            String intents = text(kafka.readAllRaw(Topic.NODE_INTENTS.topicName(), Duration.ofSeconds(30)));
            for (String secret : planted) {
                assertTrue(intents.contains(secret), "the search finds what node-intents carries in clear");
            }
            for (Topic topic : Topic.values()) {
                if (topic == Topic.NODE_INTENTS || topic == Topic.NODE_INTENTS_DLQ) {
                    continue;
                }
                String records = text(kafka.readAllRaw(topic.topicName(), Duration.ofSeconds(30)));
                for (String secret : planted) {
                    assertFalse(records.contains(secret), topic.topicName() + " holds a planted secret");
                }
            }
            assertTrue(text(kafka.readAllRaw(Topic.NODE_STATE.topicName(), Duration.ofSeconds(30))).contains("******"),
                    "the snapshots carry the mask");
        }
        List<Path> logs;
        try (Stream<Path> files = Files.walk(dataDir.resolve("logs"))) {
            logs = files.filter(Files::isRegularFile).toList();
        }
        assertTrue(logs.size() >= 6, "every service's log: " + logs);
        for (Path log : logs) {
            String lines = new String(Files.readAllBytes(log), StandardCharsets.UTF_8);
            for (String secret : planted) {
                assertFalse(lines.contains(secret), log + " holds a planted secret");
            }
        }
        for (String secret : planted) {
            assertTrue(answers.stream().noneMatch(a -> a.contains(secret)), "an API answer holds a planted secret");
            assertTrue(stack.output.stream().noneMatch(l -> l.contains(secret)), "the launcher printed a planted secret");
        }
    }

    @Test
    @Order(8)
    void aNodeGoesCreateManageProvideWithAclsOnAndAnIntentWithoutTheRightIsRefused() throws Exception {
        HttpResponse<String> created = api("POST", "/v1/nodes", "{\"driver\": \"fake-hardware\", \"name\": \"s1\"}");
        assertEquals(201, created.statusCode(), created.body());
        String uuid = JSON.readTree(created.body()).get("uuid").asText();
        assertEquals(202, api("PUT", "/v1/nodes/" + uuid + "/states/provision", "{\"target\": \"manage\"}").statusCode());
        awaitState(uuid, "manageable");
        assertEquals(202, api("PUT", "/v1/nodes/" + uuid + "/states/provision", "{\"target\": \"provide\"}").statusCode());
        awaitState(uuid, "available"); // cleaning ran: the conductor's outbox, node events and history all flowed

        // An external producer may write intents; the conductor still checks whom an intent acts for.
        KafkaSecurity security = KafkaSecurity.prepare(dataDir,
                new KafkaSecurity.Options(List.of(SITE_PRODUCER), List.of(), null)); // reads the stack's passwords
        Map<String, Object> asSite = new HashMap<>(security.clientProperties(SITE_PRODUCER));
        asSite.put("apicurio.registry.auth.username", SITE_PRODUCER);
        asSite.put("apicurio.registry.auth.password", security.password(SITE_PRODUCER));
        // Its intent key (ironflow intent-key) may sign for its auditor, a system reader, and nobody else.
        Path siteKey = IntentKeyring.at(dataDir.resolve("intent-keys"))
                .signingKey(SITE_PRODUCER, new KeyBinding(Set.of("auditor"), Set.of("reader"), Set.of(), true));
        try (KafkaTestClient kafka = new KafkaTestClient(stack.kafka(), stack.registry(), asSite).signingIntentsWith(siteKey)) {
            // The write ACL is no way to act as an admin: unsigned, or signed beyond the key's binding, it is dead-lettered.
            NodeIntent unsigned = NodeIntent.newBuilder().setIntentId(UUID.randomUUID().toString()).setNodeUuid(uuid)
                    .setRequester("admin").setPrincipal(IntentRules.toAvro(new Principal("admin", null, Set.of("admin"), true)))
                    .setRequestedAt(Instant.now()).setCommand(new DeleteNode()).build();
            kafka.sendRaw(Topic.NODE_INTENTS.topicName(), uuid, kafka.serialized(Topic.NODE_INTENTS.topicName(), unsigned));
            NodeIntent beyond = NodeIntent.newBuilder(unsigned).setIntentId(UUID.randomUUID().toString()).build();
            kafka.send(Topic.NODE_INTENTS.topicName(), uuid, beyond); // signed with the site's key, which may not carry admin
            NodeIntent reader = NodeIntent.newBuilder().setIntentId(UUID.randomUUID().toString()).setNodeUuid(uuid)
                    .setRequester("auditor")
                    .setPrincipal(IntentRules.toAvro(new Principal("auditor", null, Set.of("reader"), true)))
                    .setRequestedAt(Instant.now()).setCommand(ProvisionAction.newBuilder().setTarget("manage").build())
                    .build();
            kafka.send(Topic.NODE_INTENTS.topicName(), uuid, reader);
            IntentResult answer = kafka.<IntentResult>read(Topic.INTENT_RESULTS.topicName(), SETTLE,
                            records -> records.stream().anyMatch(r -> r.value().getIntentId().equals(reader.getIntentId())))
                    .stream().map(r -> r.value()).filter(r -> r.getIntentId().equals(reader.getIntentId())).findFirst()
                    .orElseThrow(() -> new AssertionError("no answer to the reader's intent"));
            assertEquals(403, answer.getCode(), answer.getErrorMessage());
            assertFalse(answer.getAccepted());
        }
        assertEquals("available", node(uuid).get("provision_state").asText(), "the refused and forged intents changed nothing");
    }

    @Test
    @Order(9)
    void credentialsStayInOwnerOnlyFilesNeverPrintedNorOnACommandLine() throws Exception {
        Path secrets = dataDir.resolve("secrets");
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(secrets)));
        try (var files = Files.list(secrets)) {
            for (Path file : files.toList()) {
                assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)), file.toString());
            }
        }
        KafkaSecurity security = KafkaSecurity.prepare(dataDir,
                new KafkaSecurity.Options(List.of(SITE_PRODUCER), List.of(), null));
        String output = String.join("\n", stack.output);
        assertTrue(output.contains(security.credentialsFile().toString()), "the launcher says where the passwords are");
        List<String> commandLines = stack.launcher.descendants().map(p -> p.info().commandLine().orElse("")).toList();
        assertTrue(commandLines.stream().anyMatch(c -> c.contains("conductor-service")), commandLines.toString());
        for (String user : List.of(KafkaSecurity.ADMIN, KafkaAccess.API, KafkaAccess.CONDUCTOR, KafkaAccess.ONEVIEW,
                KafkaAccess.TEARDOWN, KafkaAccess.DASHBOARD, SITE_PRODUCER)) {
            String password = security.password(user);
            assertFalse(output.contains(password), user + "'s password was printed");
            assertTrue(commandLines.stream().noneMatch(c -> c.contains(password)), user + "'s password is on a command line");
        }
        // the registry answers only its users
        HttpResponse<String> anonymous = HTTP.send(HttpRequest.newBuilder(URI.create(stack.registry() + "/admin/rules"))
                .build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(401, anonymous.statusCode());
    }

    // ---------------------------------------------------------------------------------------------------------

    /**
     * A Kafka client as the secure stack's super user, who reads every topic: from the launcher's
     * {@code secrets/kafka-admin.properties}, as an operator's Kafka tools would (PLAIN on the loopback internal
     * listener; the client listener refuses it). The registry's admin too.
     */
    private KafkaTestClient asKafkaAdmin() throws IOException {
        KafkaSecurity security = KafkaSecurity.prepare(dataDir,
                new KafkaSecurity.Options(List.of(SITE_PRODUCER), List.of(), null)); // reads the stack's passwords
        java.util.Properties file = new java.util.Properties();
        try (var in = Files.newBufferedReader(security.adminClientConfigFile())) {
            file.load(in);
        }
        Map<String, Object> asAdmin = new HashMap<>();
        file.stringPropertyNames().forEach(key -> asAdmin.put(key, file.getProperty(key)));
        asAdmin.put("apicurio.registry.auth.username", KafkaSecurity.ADMIN);
        asAdmin.put("apicurio.registry.auth.password", security.password(KafkaSecurity.ADMIN));
        return new KafkaTestClient((String) asAdmin.remove("bootstrap.servers"), stack.registry(), asAdmin);
    }

    private void awaitState(String uuid, String state) throws Exception {
        await("node " + uuid + " " + state).atMost(SETTLE).pollInterval(Duration.ofMillis(250))
                .until(() -> node(uuid), matching("provision_state " + state, node -> state.equals(node.get("provision_state").asText())));
    }

    private JsonNode node(String uuid) throws Exception {
        HttpResponse<String> response = api("GET", "/v1/nodes/" + uuid, null);
        assertEquals(200, response.statusCode(), response.body());
        return JSON.readTree(response.body());
    }

    /** An Ironic API request as the generated admin. */
    private HttpResponse<String> api(String method, String path, String body) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(stack.api() + path)).timeout(Duration.ofSeconds(30))
                .header("X-OpenStack-Ironic-API-Version", "latest").header("Content-Type", "application/json")
                .header("Authorization", stack.basic("admin"))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** Runs the real CLI as {@code user}: keystoneauth's http_basic plugin with the user's generated password. */
    private OpenstackCli.Run cli(String user, String... args) throws Exception {
        OpenstackCli.Run run = new OpenstackCli(stack.api(), dataDir).basic(user, stack.credential(user + ".password"), args);
        answers.add(run.stdout());
        answers.add(run.stderr());
        return run;
    }

    private HttpResponse<String> send(String url, String method, String authorization) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(30))
                .method(method, HttpRequest.BodyPublishers.noBody());
        if (authorization != null) {
            request.header("Authorization", authorization);
        }
        HttpResponse<String> response = HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
        answers.add(response.body());
        return response;
    }

    private HttpResponse<String> get(String path, String authorization) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(stack.api() + path)).timeout(Duration.ofSeconds(30));
        if (authorization != null) {
            request.header("Authorization", authorization);
        }
        HttpResponse<String> response = HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
        answers.add(response.body());
        return response;
    }

    private static List<String> names(JsonNode list) {
        return StreamSupport.stream(list.spliterator(), false).map(n -> n.path("Name").asText()).sorted().toList();
    }

    private static List<String> values(Path properties) throws IOException {
        Properties values = new Properties();
        try (var in = Files.newBufferedReader(properties)) {
            values.load(in);
        }
        return values.stringPropertyNames().stream().map(values::getProperty).toList();
    }

    private static String text(List<ConsumerRecord<String, byte[]>> records) {
        StringBuilder all = new StringBuilder();
        for (ConsumerRecord<String, byte[]> record : records) {
            all.append(record.key()).append(' ');
            if (record.value() != null) {
                all.append(new String(record.value(), StandardCharsets.ISO_8859_1));
            }
            record.headers().forEach(h -> all.append(' ').append(new String(h.value(), StandardCharsets.ISO_8859_1)));
            all.append('\n');
        }
        return all.toString();
    }
}
