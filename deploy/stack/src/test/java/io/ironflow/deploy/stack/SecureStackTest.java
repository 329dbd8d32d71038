package io.ironflow.deploy.stack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ironflow.deploy.infra.KafkaAccess;
import io.ironflow.deploy.infra.KafkaSecurity;
import io.ironflow.deploy.testing.KafkaTestClient;
import io.ironflow.deploy.testing.TestDirectories;
import io.ironflow.events.IntentResult;
import io.ironflow.events.NodeIntent;
import io.ironflow.events.ProvisionAction;
import io.ironflow.policy.IntentRules;
import io.ironflow.policy.Principal;
import io.ironflow.schemas.Topic;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * {@code ./ironflow up --secure}, started once: Kafka with SASL/SCRAM and ACLs, the registry with basic auth, every
 * service with its own principal. A node goes create, manage, provide through the API, so every service's Kafka
 * and registry traffic works under the ACLs. Then an external producer, allowed to write intents, sends one whose
 * caller lacks the right: it is answered 403 and changes nothing. No password is printed or on a command line.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SecureStackTest {

    private static final Duration START = Duration.ofSeconds(300);
    private static final Duration SETTLE = Duration.ofSeconds(90);
    private static final String SITE_PRODUCER = "site-automation";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private final Path dataDir = Path.of("target", "secure-stack-test-" + UUID.randomUUID()).toAbsolutePath();
    private RunningStack stack;

    @BeforeAll
    void up() throws Exception {
        stack = RunningStack.launch(dataDir, RunningStack.freePorts(), Map.of(),
                List.of("--secure", "--kafka-intent-producer", SITE_PRODUCER)).awaitUp(START);
    }

    @AfterAll
    void down() {
        if (stack != null) {
            stack.close();
        }
        TestDirectories.deleteRecursively(dataDir);
    }

    @Test
    void aNodeGoesCreateManageProvideWithAclsOnAndAnIntentWithoutTheRightIsRefused() throws Exception {
        HttpResponse<String> created = send("POST", "/v1/nodes", "{\"driver\": \"fake-hardware\", \"name\": \"s1\"}");
        assertEquals(201, created.statusCode(), created.body());
        String uuid = JSON.readTree(created.body()).get("uuid").asText();
        assertEquals(202, send("PUT", "/v1/nodes/" + uuid + "/states/provision", "{\"target\": \"manage\"}").statusCode());
        awaitState(uuid, "manageable");
        assertEquals(202, send("PUT", "/v1/nodes/" + uuid + "/states/provision", "{\"target\": \"provide\"}").statusCode());
        awaitState(uuid, "available"); // cleaning ran: the conductor's outbox, node events and history all flowed

        // An external producer may write intents; the conductor still checks whom an intent acts for.
        KafkaSecurity security = KafkaSecurity.prepare(dataDir,
                new KafkaSecurity.Options(List.of(SITE_PRODUCER), List.of(), null)); // reads the stack's passwords
        Map<String, Object> asSite = new HashMap<>(security.clientProperties(SITE_PRODUCER));
        asSite.put("apicurio.registry.auth.username", SITE_PRODUCER);
        asSite.put("apicurio.registry.auth.password", security.password(SITE_PRODUCER));
        try (KafkaTestClient kafka = new KafkaTestClient(stack.kafka(), stack.registry(), asSite)) {
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
        assertEquals("available", node(uuid).get("provision_state").asText(), "the refused intent changed nothing");
    }

    @Test
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

    private void awaitState(String uuid, String state) throws Exception {
        Instant deadline = Instant.now().plus(SETTLE);
        JsonNode node = node(uuid);
        while (!state.equals(node.get("provision_state").asText()) && Instant.now().isBefore(deadline)) {
            Thread.sleep(250);
            node = node(uuid);
        }
        assertEquals(state, node.get("provision_state").asText(), node.toString());
    }

    private JsonNode node(String uuid) throws Exception {
        HttpResponse<String> response = send("GET", "/v1/nodes/" + uuid, null);
        assertEquals(200, response.statusCode(), response.body());
        return JSON.readTree(response.body());
    }

    private HttpResponse<String> send(String method, String path, String body) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(stack.api() + path))
                .header("X-OpenStack-Ironic-API-Version", "latest").header("Content-Type", "application/json")
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }
}
