package io.ironflow.dashboard;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ironflow.deploy.testing.IronflowTestInfrastructure;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The dashboard under {@code http_basic}: without credentials the page and its JSON are 401 with a Basic challenge
 * (so a browser prompts), a system reader sees the page, its JSON and its event stream, a project-scoped member is
 * refused 403 (the board shows every node), and the health checks stay open.
 */
@QuarkusTest
@TestProfile(HttpBasicProfile.class)
@QuarkusTestResource(IronflowTestInfrastructure.class)
class HttpBasicAuthTest {

    @TestHTTPResource("/api/stream")
    URI stream;

    @Test
    void withoutCredentialsThePageIs401WithABasicChallenge() {
        for (String path : new String[] {"/", "/index.html", "/app.js", "/api/summary", "/api/nodes", "/api/stream", "/q/metrics"}) {
            given().get(path).then().statusCode(401).header("WWW-Authenticate", startsWith("Basic "))
                    .body("error_message", startsWith("Authentication required"));
        }
        given().auth().preemptive().basic("reader", "wrong").get("/api/summary").then().statusCode(401)
                .header("WWW-Authenticate", startsWith("Basic "));
    }

    @Test
    void aSystemReaderSeesThePageAndItsJson() {
        for (String user : new String[] {"reader", "admin"}) {
            given().auth().preemptive().basic(user, user + "-secret").get("/").then().statusCode(200)
                    .body(containsString("<html"));
            given().auth().preemptive().basic(user, user + "-secret").get("/api/summary").then().statusCode(200);
            given().auth().preemptive().basic(user, user + "-secret").get("/api/nodes").then().statusCode(200);
        }
    }

    @Test
    void theEventStreamTakesTheSameBasicCredentials() throws Exception {
        HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
        HttpResponse<Stream<String>> response = client.sendAsync(HttpRequest.newBuilder(stream)
                        .header("Accept", "text/event-stream")
                        .header("Authorization", "Basic " + Base64.getEncoder()
                                .encodeToString("reader:reader-secret".getBytes(StandardCharsets.UTF_8)))
                        .build(), HttpResponse.BodyHandlers.ofLines())
                .get(60, TimeUnit.SECONDS);
        try (Stream<String> lines = response.body()) {
            assertEquals(200, response.statusCode());
            assertTrue(response.headers().firstValue("Content-Type").orElse("").startsWith("text/event-stream"),
                    response.headers().toString());
            String first = lines.filter(line -> line.startsWith("data:")).findFirst().orElseThrow();
            assertTrue(first.contains("\"summary\""), first);
        }
    }

    @Test
    void aProjectScopedMemberIsRefused() {
        for (String path : new String[] {"/", "/api/summary", "/api/stream"}) {
            given().auth().preemptive().basic("member", "member-secret").get(path).then().statusCode(403)
                    .body("error_message", startsWith("Access was denied"));
        }
    }

    @Test
    void healthStaysOpen() {
        given().get("/q/health/live").then().statusCode(200);
        // readiness also waits for the broker: whatever it answers, it is not a refusal
        assertTrue(given().get("/q/health/ready").statusCode() != 401);
    }
}
