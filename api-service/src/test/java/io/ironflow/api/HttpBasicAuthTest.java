package io.ironflow.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.response.Response;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * {@code http_basic} over HTTP, as keystoneauth's http_basic plugin (the CLI's OS_AUTH_TYPE=http_basic) sends it:
 * users of an htpasswd file with bcrypt entries, their roles and project from the side file; a wrong password,
 * an unknown user or no credentials are 401 with a Basic challenge and Ironic's error body.
 */
@QuarkusTest
@TestProfile(HttpBasicAuthProfile.class)
class HttpBasicAuthTest extends WithFakeConductor {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void usersOfTheFileActWithTheirRoles() {
        String node = NodeTable.insert(jdbcUrl, NodeTable.Row.named("basic-" + UUID.randomUUID().toString().substring(0, 8)));
        NodeTable.set(jdbcUrl, node, "owner", "owner-project");
        String others = NodeTable.insert(jdbcUrl, NodeTable.Row.named("basic-" + UUID.randomUUID().toString().substring(0, 8)));

        Api.latest().auth().preemptive().basic("admin", "admin-secret").get("/v1/nodes/" + others).then().statusCode(200);
        Api.latest().auth().preemptive().basic("vector", "U*U").get("/v1/nodes/" + others).then().statusCode(200);
        Response readerWrite = Api.latest().auth().preemptive().basic("reader", "reader-secret")
                .contentType("application/json").body("{\"target\": \"power on\"}").put("/v1/nodes/" + node + "/states/power");
        assertEquals(403, readerWrite.statusCode(), readerWrite.asString());
        String listed = Api.latest().auth().preemptive().basic("member", "member-secret").get("/v1/nodes?limit=1000")
                .then().statusCode(200).extract().asString();
        assertTrue(listed.contains(node) && !listed.contains(others), "a project member lists its own nodes only: " + listed);
        Api.latest().auth().preemptive().basic("member", "member-secret").get("/v1/nodes/" + others).then().statusCode(404);
        Api.latest().auth().preemptive().basic("norole", "norole-secret").get("/v1/nodes").then().statusCode(403);
    }

    @Test
    void badCredentialsAre401WithABasicChallenge() throws Exception {
        for (Response response : new Response[] {
                Api.latest().get("/v1/nodes"),
                Api.latest().auth().preemptive().basic("admin", "wrong").get("/v1/nodes"),
                Api.latest().auth().preemptive().basic("vector", "U*U*").get("/v1/nodes"),
                Api.latest().auth().preemptive().basic("nobody", "admin-secret").get("/v1/nodes"),
                Api.latest().header("X-Auth-Token", "a-token").get("/v1/nodes")}) {
            assertEquals(401, response.statusCode(), response.asString());
            assertEquals("Basic realm=\"Baremetal API\"", response.header("WWW-Authenticate"));
            String faultstring = JSON.readTree(JSON.readTree(response.asString()).get("error_message").asText())
                    .get("faultstring").asText();
            assertTrue(faultstring.startsWith("Authentication required"), faultstring);
        }
        Api.latest().get("/v1").then().statusCode(200);
    }
}
