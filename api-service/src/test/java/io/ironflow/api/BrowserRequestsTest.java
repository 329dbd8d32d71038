package io.ironflow.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The default noauth API against a web page the operator visits (issue 58): a page may POST text/plain, form or
 * multipart bodies without a CORS preflight, so a body that is not JSON is 415 in Ironic's shape; a page whose
 * name was rebound to 127.0.0.1 sends its own name as Host, and another site's request carries its Origin: both
 * are 403. Command-line clients (a loopback Host, no Origin) are answered as before.
 */
@QuarkusTest
class BrowserRequestsTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TestHTTPResource("/")
    URL root;

    @Test
    void bodiesThatAreNotJsonAre415InIronicsShape() throws Exception {
        RawHttp http = new RawHttp(root);
        byte[] body = "{\"driver\": \"fake-hardware\"}".getBytes(StandardCharsets.UTF_8);
        for (String type : new String[] {"text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"}) {
            RawHttp.Reply refused = http.send("POST", "/v1/nodes", Map.of("Content-Type", type), body, false);
            assertEquals(415, refused.status(), type + ": " + refused.body());
            String fault = faultstring(refused.body());
            assertTrue(fault.contains("application/json"), fault);
        }
        RawHttp.Reply untyped = http.send("POST", "/v1/nodes", Map.of(), body, false);
        assertEquals(415, untyped.status(), untyped.body());
        // a JSON patch document may say so (the node is then looked up: no 415, whatever else)
        Response patch = Api.latest().contentType("application/json-patch+json")
                .body("[{\"op\": \"replace\", \"path\": \"/name\", \"value\": \"n\"}]").patch("/v1/nodes/no-such-node-58");
        assertNotEquals(415, patch.statusCode(), patch.asString());
        Response json = Api.latest().contentType("application/json; charset=UTF-8").body("{}").post("/v1/nodes");
        assertNotEquals(415, json.statusCode(), json.asString());
    }

    @Test
    void onlyLoopbackHostsAndNoForeignOriginAreAnsweredWithoutAuthentication() throws Exception {
        RawHttp http = new RawHttp(root);
        for (String host : new String[] {"evil.example", "evil.example:" + root.getPort(), "127.0.0.1.evil.example", "10.0.0.1"}) {
            RawHttp.Reply refused = http.send("GET", "/v1/nodes", Map.of("Host", host), null, false);
            assertEquals(403, refused.status(), host + ": " + refused.body());
            assertTrue(faultstring(refused.body()).contains("not a loopback name"), refused.body());
        }
        for (String host : new String[] {"localhost", "localhost:" + root.getPort(), "127.0.0.1:" + root.getPort(), "127.1.2.3",
                "[::1]:" + root.getPort(), "[::1]"}) {
            assertEquals(200, http.send("GET", "/v1", Map.of("Host", host), null, false).status(), host);
        }
        RawHttp.Reply foreign = http.send("POST", "/v1/nodes", Map.of("Origin", "https://evil.example",
                "Content-Type", "application/json"), "{}".getBytes(), false);
        assertEquals(403, foreign.status(), foreign.body());
        assertEquals(403, http.send("GET", "/v1/nodes", Map.of("Origin", "null"), null, false).status());
        assertEquals(200, http.send("GET", "/v1", Map.of("Origin", "http://localhost:" + root.getPort()), null, false).status());
    }

    private static String faultstring(String body) throws Exception {
        return JSON.readTree(JSON.readTree(body).get("error_message").asText()).get("faultstring").asText();
    }
}
