package io.ironflow.deploy.stack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ironflow.deploy.testing.TestDirectories;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * The "done when" in the local stack: a redeploy_server action for an active node runs every step against
 * the seeded Kubernetes stand-in, the stack's etcd and the real conductor; the teardown-orchestrator is killed
 * with SIGKILL while the destroy step runs, the launcher restarts it, and the restarted orchestrator finishes the
 * action from that step. The node ends available and powered off, its Kubernetes Node gone. The stack runs with
 * {@code --auth jwt} (AuthStackTest has http_basic): the test calls the API and the orchestrator with the generated
 * admin's token as a bearer token, the orchestrator calls the API with the service account's token in X-Auth-Token;
 * then the real CLI authenticates with tokens (X-Auth-Token), each held to its roles and scope.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class TeardownRedeployTest {

    private static final String INSTANCE_ID = "-Dironflow.teardown.instance-id=ironflow-up:teardown-orchestrator";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private final Path dataDir = Path.of("target", "teardown-test-" + UUID.randomUUID()).toAbsolutePath();
    private RunningStack stack;

    @BeforeAll
    void up() throws Exception {
        // With authentication on: the orchestrator reads nodes from the API with the stack's service token.
        stack = RunningStack.launch(dataDir, RunningStack.freePorts(), Map.of(), List.of("--auth", "jwt"))
                .awaitUp(Duration.ofSeconds(240));
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
    void aRedeployKilledMidActionFinishesAfterTheRestart() throws Exception {
        // node-1 is seeded in the Kubernetes stand-in and is an etcd member; in Ironflow it is an active node whose
        // cleaning takes 15 s once deployed, long enough to kill the orchestrator while the destroy waits for it.
        // A conductor that does not answer within the API's 10 s (a loaded machine, a conductor still joining its
        // group) gets a 503 whose intent expires unapplied: the write is sent again, as clients do.
        ClientRetries.Sent created = ClientRetries.send(HTTP, ironic("POST", "/v1/nodes", "{\"driver\":\"fake-hardware\",\"name\":\"node-1\"}"));
        assertTrue(created.answered(201), created.toString());
        await(Duration.ofSeconds(90), () -> HTTP.send(ironic("GET", "/v1/nodes/node-1", null),
                HttpResponse.BodyHandlers.ofString()).statusCode() == 200);
        for (String[] verb : new String[][] {{"manage", "manageable"}, {"provide", "available"}, {"active", "active"}}) {
            ClientRetries.Sent accepted = ClientRetries.send(HTTP, ironic("PUT", "/v1/nodes/node-1/states/provision",
                    "{\"target\":\"" + verb[0] + "\"}"));
            assertTrue(accepted.answered(202), verb[0] + ": " + accepted);
            await(Duration.ofSeconds(90), () -> verb[1].equals(node().path("provision_state").asText()));
        }
        // The slow step only now: provide's cleaning need not wait it out too.
        ClientRetries.Sent patched = ClientRetries.send(HTTP, ironic("PATCH", "/v1/nodes/node-1",
                "[{\"op\":\"add\",\"path\":\"/driver_info/fake_step_seconds\",\"value\":{\"deploy.erase_devices\":15}}]"));
        assertTrue(patched.answered(200), "PATCH: " + patched);
        await(Duration.ofSeconds(90), () -> node().path("driver_info").path("fake_step_seconds").has("deploy.erase_devices"));
        send(teardown("POST", "/api/v1.0/configdocs/site", "schema: promenade/EtcdClusters/v1\nmetadata: {name: etcd}\n"), 201);
        send(teardown("POST", "/api/v1.0/commitconfigdocs", null), 200);
        String site = JSON.readTree(send(teardown("POST", "/api/v1.0/actions", "{\"name\":\"deploy_site\"}"), 201)).path("id").asText();
        await(Duration.ofSeconds(60), () -> "Complete".equals(action(site).path("action_lifecycle").asText()));

        String id = JSON.readTree(send(teardown("POST", "/api/v1.0/actions",
                "{\"name\":\"redeploy_server\",\"parameters\":{\"target_nodes\":[\"node-1\"]}}"), 201)).path("id").asText();
        await(Duration.ofSeconds(180), () -> "running".equals(step(id, "destroy")));

        ProcessHandle orchestrator = stack.service("teardown-orchestrator");
        assertTrue(orchestrator.info().commandLine().orElse("").contains(INSTANCE_ID), "the launcher names its orchestrator");
        RunningStack.signal("KILL", orchestrator.pid());
        await(Duration.ofSeconds(120), () -> stack.output.stream().anyMatch(
                line -> line.startsWith("ironflow: supervisor: teardown-orchestrator is live again after restart 1")));
        assertNotEquals(orchestrator.pid(), stack.service("teardown-orchestrator").pid());
        // under the same name, so it takes the action's lease back at start-up (ActionLeasesTest), not after lease-ttl
        assertTrue(stack.service("teardown-orchestrator").info().commandLine().orElse("").contains(INSTANCE_ID));

        await(Duration.ofSeconds(240), () -> Lifecycle.done(action(id).path("action_lifecycle").asText()));
        JsonNode action = action(id);
        assertEquals("Complete", action.path("action_lifecycle").asText(), action.toString());
        for (JsonNode step : action.path("steps")) {
            assertEquals("success", step.path("state").asText(), step.toString()); // Airflow's word, as Shipyard shows it
        }
        JsonNode node = node();
        assertEquals("available", node.path("provision_state").asText());
        assertEquals("power off", node.path("power_state").asText());
        int gone = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + stack.ports.get("kubernetes")
                + "/api/v1/nodes/node-1")).build(), HttpResponse.BodyHandlers.discarding()).statusCode();
        assertEquals(404, gone, "the Kubernetes Node is deleted");
    }

    @Test
    @Order(2)
    void theCliAuthenticatesWithATokenHeldToItsRolesAndScope() throws Exception {
        assertTrue(stack.output.stream().anyMatch(l -> l.contains("Authentication") && l.contains("jwt")
                && l.contains("tokens are in")), "the launcher says where the tokens are");
        OpenstackCli cli = new OpenstackCli(stack.api(), dataDir);
        JsonNode all = cli.token(stack.credential("admin.token"), "baremetal", "node", "list", "-f", "json").ok().json();
        assertEquals("node-1", all.path(0).path("Name").asText(), all.toString());
        assertEquals(0, cli.token(stack.credential("member.token"), "baremetal", "node", "list", "-f", "json").ok().json().size(),
                "node-1 belongs to no project");
        OpenstackCli.Run hidden = cli.token(stack.credential("member.token"), "baremetal", "node", "show", "node-1").failed();
        assertTrue(hidden.message().contains("HTTP 404"), hidden.toString());
        OpenstackCli.Run write = cli.token(stack.credential("reader.token"), "baremetal", "node", "set", "node-1",
                "--extra", "team=a").failed();
        assertTrue(write.message().contains("HTTP 403"), write.toString());
        OpenstackCli.Run forged = cli.token("not-a-token", "baremetal", "node", "list").failed();
        assertTrue(forged.message().contains("401"), forged.toString());
    }

    /** Shipyard's finished lifecycles. */
    private static final class Lifecycle {
        static boolean done(String lifecycle) {
            return lifecycle.equals("Complete") || lifecycle.equals("Failed");
        }
    }

    private JsonNode node() throws Exception {
        return JSON.readTree(send(ironic("GET", "/v1/nodes/node-1", null), 200));
    }

    private JsonNode action(String id) throws Exception {
        return JSON.readTree(send(teardown("GET", "/api/v1.0/actions/" + id, null), 200));
    }

    private String step(String id, String name) throws Exception {
        for (JsonNode step : action(id).path("steps")) {
            if (step.path("id").asText().equals(name)) {
                return step.path("state").asText();
            }
        }
        return null;
    }

    private HttpRequest ironic(String method, String path, String body) throws java.io.IOException {
        return request(stack.api() + path, method, body).header("X-OpenStack-Ironic-API-Version", "latest")
                .header("Authorization", "Bearer " + stack.credential("admin.token")).header("Content-Type", "application/json").build();
    }

    private HttpRequest teardown(String method, String path, String body) throws java.io.IOException {
        HttpRequest.Builder request = request("http://127.0.0.1:" + stack.ports.get("teardown") + path, method, body)
                .header("Authorization", "Bearer " + stack.credential("admin.token"));
        // an action's body is JSON, and the orchestrator takes it as JSON only (issue 58: no simple cross-site POST)
        return (body == null ? request : request.header("Content-Type", "application/json")).build();
    }

    private static HttpRequest.Builder request(String url, String method, String body) {
        return HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(30)).method(method,
                body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
    }

    private static String send(HttpRequest request, int expected) throws Exception {
        HttpResponse<String> response = HTTP.send(request, HttpResponse.BodyHandlers.ofString());
        assertEquals(expected, response.statusCode(), request.method() + " " + request.uri() + ": " + response.body());
        return response.body();
    }

    private interface Check {
        boolean holds() throws Exception;
    }

    private static void await(Duration timeout, Check check) {
        Awaitility.await().atMost(timeout).pollInterval(Duration.ofMillis(500))
                // a service restarting does not answer for a moment
                .ignoreExceptionsMatching(e -> e instanceof java.io.IOException || e instanceof AssertionError)
                .until(check::holds);
    }

}
