package io.ironflow.teardown;

import static io.ironflow.teardown.NodeStepsTest.airship;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;

import io.ironflow.deploy.testing.IronflowTestInfrastructure;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
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
    void actionsTakeJsonOnlyAndConfigdocsTheirYaml() {
        airship(given().contentType("text/plain").body("{\"name\": \"deploy_site\"}").post("/api/v1.0/actions").then(),
                415, "UnsupportedMediaType");
        airship(given().contentType("application/x-www-form-urlencoded").body("name=deploy_site").post("/api/v1.0/actions").then(),
                415, "UnsupportedMediaType");
        given().contentType("application/x-yaml").body("browser: 1\n".getBytes(StandardCharsets.UTF_8)).post("/api/v1.0/configdocs/browser").then().statusCode(201);
        given().contentType("application/x-yaml").body(("a: " + "x".repeat(1_100_000) + "\n").getBytes(StandardCharsets.UTF_8)).post("/api/v1.0/configdocs/big")
                .then().statusCode(413);
    }

    @Test
    void foreignHostsAndOriginsAreRefusedWithoutAuthentication() {
        airship(given().header("Host", "evil.example").get("/api/v1.0/actions").then(), 403, "Forbidden");
        airship(given().header("Origin", "https://evil.example").post("/api/v1.0/commitconfigdocs").then(), 403, "Forbidden");
        given().header("Host", "localhost").get("/api/v1.0/actions").then().statusCode(200)
                .body(containsString("["));
    }
}
