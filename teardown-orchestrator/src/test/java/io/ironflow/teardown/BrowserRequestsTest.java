package io.ironflow.teardown;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static io.ironflow.teardown.NodeStepsTest.airship;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;

import io.ironflow.deploy.testing.IronflowTestInfrastructure;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * The orchestrator's noauth port against a web page the operator visits (issue 58): an action whose body is not
 * JSON (a page may POST text/plain without a preflight) is 415, and a foreign Host (DNS rebinding) or Origin is
 * 403, each as an Airship status document; configdocs keep taking YAML; a body over 1 MiB is 413.
 */
@QuarkusTest
@QuarkusTestResource(IronflowTestInfrastructure.class)
@QuarkusTestResource(TeardownPeers.class)
class BrowserRequestsTest {

    @Test
    void actionsTakeJsonOnlyAndConfigdocsTheirYaml() throws IOException {
        airship(given().contentType("text/plain").body("{\"name\": \"deploy_site\"}").post("/api/v1.0/actions").then(),
                415, "UnsupportedMediaType");
        airship(given().contentType("application/x-www-form-urlencoded").body("name=deploy_site").post("/api/v1.0/actions").then(),
                415, "UnsupportedMediaType");
        given().contentType("application/x-yaml").body("browser: 1\n".getBytes(StandardCharsets.UTF_8)).post("/api/v1.0/configdocs/browser").then().statusCode(201);
        assertEquals("HTTP/1.1 413", statusOfAnnouncedBody("/api/v1.0/configdocs/big", 1_100_000));
    }

    /**
     * The status line answered to a POST that announces {@code length} bytes and asks to continue: the server refuses
     * an over-long body before it is sent, so the answer does not race a client still writing (a broken pipe).
     */
    private static String statusOfAnnouncedBody(String path, int length) throws IOException {
        try (Socket socket = new Socket("127.0.0.1", RestAssured.port)) {
            socket.setSoTimeout(10_000);
            socket.getOutputStream().write(("POST " + path + " HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/x-yaml\r\n"
                    + "Content-Length: " + length + "\r\nExpect: 100-continue\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            String status = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.US_ASCII)).readLine();
            return status == null ? "" : status.substring(0, Math.min(12, status.length()));
        }
    }

    @Test
    void foreignHostsAndOriginsAreRefusedWithoutAuthentication() {
        airship(given().header("Host", "evil.example").get("/api/v1.0/actions").then(), 403, "Forbidden");
        airship(given().header("Origin", "https://evil.example").post("/api/v1.0/commitconfigdocs").then(), 403, "Forbidden");
        given().header("Host", "localhost").get("/api/v1.0/actions").then().statusCode(200)
                .body(containsString("["));
    }
}
