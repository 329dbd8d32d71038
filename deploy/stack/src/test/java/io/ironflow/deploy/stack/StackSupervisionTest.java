package io.ironflow.deploy.stack;

import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code ./ironflow up} restarts a conductor killed with kill -9, and the API's intents are applied again. Runs on
 * the {@link SharedStack}, last of the classes sharing it: the kill is the launcher's to repair, and the stack is
 * whole again when the test ends.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@ExtendWith(SharedStack.class)
@Order(5)
class StackSupervisionTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    /** A restarted conductor rejoins the intents' consumer group once the killed member's session expired (45 s). */
    private static final Duration RECOVERY = Duration.ofSeconds(180);

    private RunningStack stack;

    @BeforeAll
    void up(RunningStack shared) {
        stack = shared;
    }

    @Test
    void aConductorKilledWithSigkillIsRestartedAndIntentsApplyAgain() throws Exception {
        assertEquals(201, send("POST", "/v1/nodes", "{\"driver\": \"fake-hardware\", \"name\": \"supervised-before\"}")
                .statusCode());
        ProcessHandle conductor = stack.service("conductor-service");
        RunningStack.signal("KILL", conductor.pid());

        // The shared stack's launcher may have restarted this conductor before (its backoff doubles from 1 s).
        String exited = "ironflow: supervisor: conductor-service exited with code 137 (pid " + conductor.pid()
                + "); restart ";
        String restart = awaitOutput(exited).substring(exited.length()).split(" ")[0];
        assertTrue(restart.matches("[1-9][0-9]*"), "restart number: " + restart);
        awaitOutput("ironflow: supervisor: conductor-service is live again after restart " + restart + " (pid ");
        ProcessHandle restarted = stack.service("conductor-service");
        assertNotEquals(conductor.pid(), restarted.pid());

        // Until the new conductor has the intents' partitions the API may answer 503 (the intent expires unapplied):
        // sent again, as clients do.
        String uuid = UUID.randomUUID().toString();
        String after = "{\"driver\": \"fake-hardware\", \"name\": \"supervised-after\", \"uuid\": \"" + uuid + "\"}";
        ClientRetries.Sent created = ClientRetries.send(HTTP, request("POST", "/v1/nodes", after));
        assertTrue(created.answered(201), "POST answered " + created);
        awaitState(uuid, "enroll");
        ClientRetries.Sent managed = ClientRetries.send(HTTP, request("PUT", "/v1/nodes/" + uuid + "/states/provision",
                "{\"target\": \"manage\"}"));
        assertTrue(managed.answered(202), "PUT answered " + managed);
        awaitState(uuid, "manageable");
        assertEquals(200, send("GET", "/v1/nodes/supervised-before", null).statusCode(), "nodes from before the kill are kept");
        assertTrue(restarted.isAlive());
    }

    /** The launcher's first line that starts with {@code prefix}, once printed. */
    private String awaitOutput(String prefix) {
        return await("the launcher printing '" + prefix + "'").atMost(RECOVERY).pollInterval(Duration.ofMillis(100))
                .until(() -> stack.output.stream().filter(line -> line.startsWith(prefix)).findFirst(), Optional::isPresent)
                .orElseThrow();
    }

    private void awaitState(String uuid, String state) throws Exception {
        await("node " + uuid + " " + state).atMost(RECOVERY).pollInterval(Duration.ofMillis(250)).until(() -> {
            HttpResponse<String> node = send("GET", "/v1/nodes/" + uuid, null);
            return node.statusCode() == 200 ? JSON.readTree(node.body()).get("provision_state").asText() : node.statusCode() + " " + node.body();
        }, equalTo(state));
    }

    private HttpResponse<String> send(String method, String path, String body) throws Exception {
        return HTTP.send(request(method, path, body), HttpResponse.BodyHandlers.ofString());
    }

    private HttpRequest request(String method, String path, String body) {
        return HttpRequest.newBuilder(URI.create(stack.api() + path))
                .header("X-OpenStack-Ironic-API-Version", "latest").header("Content-Type", "application/json")
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body))
                .build();
    }
}
