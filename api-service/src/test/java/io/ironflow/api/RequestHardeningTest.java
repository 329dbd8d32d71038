package io.ironflow.api;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ironflow.events.IntentResult;
import io.ironflow.events.NodeSnapshot;
import io.ironflow.events.UpdateNode;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What fuzzing found answered 500 (or worse, sent on to the conductor and PostgreSQL), each now refused the way
 * Ironic refuses it, in Ironic's error shape, with nothing sent: NUL characters anywhere, unparsable or
 * oversized microversions, bodies over Ironic's limit, values of the wrong type for the field they write,
 * JSON nested too deep or holding numbers no column can store. And the one 500 left: fixed text, a request id.
 */
@QuarkusTest
class RequestHardeningTest extends WithFakeConductor {

    private static final ObjectMapper JSON = new ObjectMapper();
    @TestHTTPResource("/")
    URL root;

    // ---- NUL and broken percent-encoding in URLs

    @ParameterizedTest
    @ValueSource(strings = {"/v1/nodes?description_contains=%00", "/v1/nodes?owner=a%00b", "/v1/nodes/detail?name=%00",
            "/v1/nodes/n%00", "/v1/nodes/%00/states", "/v1/nodes/x/validate%00", "/v1/drivers/fake%00hardware",
            "/v1/nodes?description_contains=%zz", "/v1/nodes?limit=%", "/v1/nodes/%E2%28%A1", "/v1/nodes?owner=%ff",
            "/v1/nodes/x/cleaning/steps?min_priority=%00"})
    void aBrokenOrNulUrlIs400InIronicsShape(String target) throws Exception {
        int before = conductor.intentsRead();
        RawHttp.Reply response = raw("GET", target, null);
        assertEquals(400, response.status(), target + " " + response.body());
        String fault = clientFault(response.body());
        assertTrue(fault.startsWith("The request URL is not valid"), fault);
        assertEquals("1.82", response.header("X-OpenStack-Ironic-API-Maximum-Version"));
        for (String method : List.of("DELETE", "PATCH", "PUT")) {
            RawHttp.Reply write = raw(method, target, "[{\"op\": \"remove\", \"path\": \"/extra/a\"}]");
            assertEquals(400, write.status(), method + " " + target + " " + write.body());
            clientFault(write.body());
        }
        assertEquals(before, conductor.intentsRead(), "nothing was sent");
    }

    @Test
    void aUnicodeNameInTheUrlIsStillLookedUp() throws Exception {
        RawHttp.Reply response = raw("GET", "/v1/nodes/%C3%A9t%C3%A9", null);
        assertEquals(404, response.status(), response.body());
        assertEquals("Node \u00e9t\u00e9 could not be found.", clientFault(response.body()));
    }

    // ---- NUL, surrogates, depth and numbers in JSON bodies

    static Stream<Arguments> unstorableBodies() {
        String deep = "[".repeat(40) + "]".repeat(40);
        return Stream.of(
                Arguments.of("POST", "", "{\"driver\": \"fake-hardware\", \"description\": \"a\\u0000b\"}"),
                Arguments.of("POST", "", "{\"driver\": \"fake\\u0000hardware\"}"),
                Arguments.of("POST", "", "{\"driver\": \"fake-hardware\", \"extra\": {\"k\\u0000\": 1}}"),
                Arguments.of("POST", "", "{\"driver\": \"fake-hardware\", \"extra\": {\"k\": [\"\\ud800\"]}}"),
                Arguments.of("POST", "", "{\"driver\": \"fake-hardware\", \"extra\": {\"k\": 1e400}}"),
                Arguments.of("POST", "", "{\"driver\": \"fake-hardware\", \"extra\": {\"k\": " + deep + "}}"),
                Arguments.of("PATCH", "", "[{\"op\": \"add\", \"path\": \"/extra/a\", \"value\": \"\\u0000\"}]"),
                Arguments.of("PATCH", "", "[{\"op\": \"add\", \"path\": \"/extra/a\\u0000\", \"value\": 1}]"),
                Arguments.of("PATCH", "", "[{\"op\": \"add\", \"path\": \"/extra/a\", \"value\": " + deep + "}]"),
                Arguments.of("PATCH", "", "[{\"op\": \"add\", \"path\": \"/extra/a\", \"value\": -1e999}]"),
                Arguments.of("PUT", "/maintenance", "{\"reason\": \"disk\\u0000\"}"),
                Arguments.of("PUT", "/states/provision", "{\"target\": \"manage\\u0000\"}"),
                Arguments.of("PUT", "/states/provision", "{\"target\": \"clean\", \"clean_steps\": [{\"step\": \"\\udc00\"}]}"),
                Arguments.of("PUT", "/states/power", "{\"target\": \"power on\\u0000\"}"));
    }

    @ParameterizedTest
    @MethodSource("unstorableBodies")
    void unstorableJsonIs400AndSendsNothing(String method, String path, String body) throws Exception {
        assertRefused(method, path, body, null);
    }

    // ---- field types the conductor cannot apply

    @ParameterizedTest
    @ValueSource(strings = {"{\"name\": 5}", "{\"description\": 5}", "{\"owner\": []}", "{\"lessee\": {}}",
            "{\"resource_class\": true}", "{\"conductor_group\": 1}", "{\"driver_info\": \"x\"}", "{\"properties\": []}",
            "{\"extra\": 1}", "{\"instance_info\": \"s\"}", "{\"automated_clean\": \"maybe\"}", "{\"uuid\": 7}",
            "{\"uuid\": \"0b6e2a4c-1f7e-4c1a-9d55-7d3f1c2b9a1\"}", "{\"name\": \"has space\"}",
            "{\"name\": \"0b6e2a4c-1f7e-4c1a-9d55-7d3f1c2b9a10\"}", "{\"resource_class\": \"RRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRR\"}"})
    void aCreateWithAFieldOfTheWrongTypeIs400(String fields) throws Exception {
        String body = "{\"driver\": \"fake-hardware\", " + fields.substring(1);
        assertRefused("POST", "", body, null);
    }

    @ParameterizedTest
    @ValueSource(strings = {"name", "description", "owner", "lessee", "resource_class", "conductor_group",
            "instance_uuid", "retired_reason"})
    void aPatchSettingAStringFieldToANonStringIs400(String field) throws Exception {
        for (String value : List.of("5", "true", "[]", "{\"a\": 1}")) {
            assertRefused("PATCH", "", "[{\"op\": \"replace\", \"path\": \"/" + field + "\", \"value\": " + value + "}]",
                    "Invalid input for field/attribute " + field + ". Value: '" + JSON.readTree(value) + "'. Expected a string");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"driver_info", "properties", "extra", "instance_info"})
    void aPatchSettingADictionaryToANonObjectIs400(String field) throws Exception {
        for (String value : List.of("5", "\"x\"", "[]", "null", "false")) {
            assertRefused("PATCH", "", "[{\"op\": \"add\", \"path\": \"/" + field + "\", \"value\": " + value + "}]",
                    "Invalid input for field/attribute " + field + ".");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"[{\"op\": \"replace\", \"path\": \"/retired\", \"value\": 5}]",
            "[{\"op\": \"replace\", \"path\": \"/retired\", \"value\": \"maybe\"}]",
            "[{\"op\": \"replace\", \"path\": \"/automated_clean\", \"value\": []}]",
            "[{\"op\": \"replace\", \"path\": \"/automated_clean\", \"value\": \"sometimes\"}]",
            "[{\"op\": \"replace\", \"path\": \"/instance_uuid\", \"value\": \"not-a-uuid\"}]",
            "[{\"op\": \"replace\", \"path\": \"/name\", \"value\": \"no spaces please\"}]",
            "[{\"op\": \"replace\", \"path\": \"/name\", \"value\": \"0b6e2a4c-1f7e-4c1a-9d55-7d3f1c2b9a10\"}]",
            "[{\"op\": \"replace\", \"path\": \"/owner\", \"value\": \"o*256\"}]",
            "[{\"op\": \"replace\", \"path\": \"/description\", \"value\": \"d*4097\"}]"})
    void patchValuesIronicRefusesAre400(String patch) throws Exception {
        // "c*N": N times c, a value one character over the field's length
        assertRefused("PATCH", "", patch.replace("o*256", "o".repeat(256)).replace("d*4097", "d".repeat(4097)), null);
    }

    @Test
    void textBooleansAndNullsStillGoToTheConductor() throws Exception {
        String uuid = NodeTable.insert(jdbcUrl, NodeTable.Row.named(null));
        conductor.answer(uuid, intent -> FakeConductor.accepted(intent, 200, snapshot(uuid)));
        String patch = "[{\"op\": \"replace\", \"path\": \"/retired\", \"value\": \"True\"},"
                + " {\"op\": \"replace\", \"path\": \"/automated_clean\", \"value\": null},"
                + " {\"op\": \"replace\", \"path\": \"/name\", \"value\": \"ok-name.1~x\"},"
                + " {\"op\": \"replace\", \"path\": \"/description\", \"value\": null},"
                + " {\"op\": \"add\", \"path\": \"/extra/n\", \"value\": {\"deep\": [1, 2.5, \"\u00e9\ud83d\ude00\"]}}]";
        Response response = Api.latest().contentType("application/json").body(patch).patch("/v1/nodes/" + uuid);
        assertEquals(200, response.statusCode(), response.asString());
        assertEquals(JSON.readTree(patch), JSON.readTree(((UpdateNode) conductor.intentsFor(uuid).get(0).getCommand()).getPatch()));
    }

    // ---- microversions

    @ParameterizedTest
    @ValueSource(strings = {"99999999999999999999.1", "1.99999999999999999999", "1.2.3", "1.", ".1", "1.x", "-1.5",
            "1.-5", "\u0661.\u0665", "latest1", "1,5"})
    void anyVersionNotServedIs406(String asked) throws Exception {
        for (String header : List.of("X-OpenStack-Ironic-API-Version", "OpenStack-API-Version")) {
            String value = header.startsWith("X-") ? asked : "baremetal " + asked;
            Response response = given().header(header, value).get("/v1/nodes");
            assertEquals(406, response.statusCode(), header + ": " + asked + " " + response.asString());
            String fault = clientFault(response.asString());
            assertTrue(fault.contains("Invalid value for X-OpenStack-Ironic-API-Version header")
                    || fault.contains("The supported version range is: [1.1, 1.82]"), fault);
            assertEquals("1.82", response.header("X-OpenStack-Ironic-API-Maximum-Version"));
        }
        String fault = clientFault(given().header("X-OpenStack-Ironic-API-Version", "99999999999999999999.1")
                .get("/v1/nodes").asString());
        assertEquals("Mutually exclusive versions requested. Version 99999999999999999999.1 requested but not"
                + " supported by this service. The supported version range is: [1.1, 1.82].", fault);
    }

    // ---- encoding

    /** A body that is not UTF-8 ("caf" then the Latin-1 byte of é) is 400, not stored with U+FFFD in its place. */
    @Test
    void aBodyThatIsNotUtf8Is400AndSendsNothing() throws Exception {
        int before = conductor.intentsRead();
        byte[] latin1 = "{\"driver\": \"fake-hardware\", \"description\": \"caf\u00e9\"}".getBytes(StandardCharsets.ISO_8859_1);
        Map<String, String> json = Map.of("Content-Type", "application/json", "X-OpenStack-Ironic-API-Version", "latest");
        RawHttp.Reply refused = new RawHttp(root).send("POST", "/v1/nodes", json, latin1, false);
        assertEquals(400, refused.status(), refused.body());
        assertEquals("The request body is not valid UTF-8 text.", clientFault(refused.body()));
        RawHttp.Reply patch = new RawHttp(root).send("PATCH", "/v1/nodes/" + java.util.UUID.randomUUID(), json,
                "[{\"op\": \"add\", \"path\": \"/extra/k\", \"value\": \"\u00ff\"}]".getBytes(StandardCharsets.ISO_8859_1), false);
        assertEquals(400, patch.status(), patch.body());
        assertEquals(before, conductor.intentsRead(), "nothing was sent");
    }

    // ---- body size

    @Test
    void aBodyOverIronicsLimitIs413InIronicsShape() throws Exception {
        int before = conductor.intentsRead();
        String filler = "x".repeat(114_688 - "{\"driver\": \"fake-hardware\", \"description\": \"\"}".length());
        String atLimit = "{\"driver\": \"fake-hardware\", \"description\": \"" + filler + "\"}";
        assertEquals(114_688, atLimit.getBytes(StandardCharsets.UTF_8).length);
        RawHttp.Reply fits = raw("POST", "/v1/nodes", atLimit);
        assertEquals(400, fits.status(), "at the limit the body is read, and its description is too long");
        assertTrue(clientFault(fits.body()).contains("at most 4096 characters"), fits.body());

        String over = atLimit.replace("\"x", "\"xx");
        for (String target : List.of("/v1/nodes", "/v1/nodes/x", "/v1/nodes/x/states/provision", "/v1/nodes/x/maintenance")) {
            RawHttp.Reply response = raw(target.equals("/v1/nodes") ? "POST" : target.endsWith("x") ? "PATCH" : "PUT",
                    target, over);
            assertEquals(413, response.status(), target + " " + response.body());
            assertEquals("Request is too large. Larger than max_request_body_size (114688).", clientFault(response.body()));
        }
        // Without a declared length (chunked), the limit holds as the body is read; under it, the body is read whole.
        Map<String, String> json = Map.of("Content-Type", "application/json", "X-OpenStack-Ironic-API-Version", "latest");
        RawHttp.Reply chunked = new RawHttp(root).send("POST", "/v1/nodes", json, over.getBytes(StandardCharsets.UTF_8), true);
        assertEquals(413, chunked.status(), chunked.body());
        assertEquals("Request is too large. Larger than max_request_body_size (114688).", clientFault(chunked.body()));
        assertEquals("1.82", chunked.header("X-OpenStack-Ironic-API-Maximum-Version"));
        RawHttp.Reply small = new RawHttp(root).send("POST", "/v1/nodes", json,
                "{\"driver\": \"fake-hardware\", \"name\": 5}".getBytes(StandardCharsets.UTF_8), true);
        assertEquals(400, small.status(), small.body());
        assertTrue(clientFault(small.body()).startsWith("Invalid input for field/attribute name. Value: '5'"), small.body());
        assertEquals(before, conductor.intentsRead(), "nothing was sent");
    }

    // ---- the one 500 left

    @Test
    void anUnforeseenFailureIs500WithAFixedMessageAndARequestId() throws Exception {
        String uuid = NodeTable.insert(jdbcUrl, NodeTable.Row.named(null));
        // A conductor answering a validation with something that is not a JSON document: a fault of ours.
        conductor.answer(uuid, intent -> IntentResult.newBuilder(FakeConductor.accepted(intent, 200, snapshot(uuid)))
                .setValidation("java.lang.IllegalStateException: not { json").build());
        // The fake conductor's first answer can take longer than the test's 3 s intent timeout (503): ask again.
        Response[] answered = new Response[1];
        await().atMost(Duration.ofSeconds(30)).until(() -> {
            answered[0] = Api.latest().get("/v1/nodes/" + uuid + "/validate");
            return answered[0].statusCode() != 503;
        });
        Response response = answered[0];
        assertEquals(500, response.statusCode(), response.asString());
        JsonNode fault = fault(response.asString());
        assertEquals("Server", fault.get("faultcode").asText());
        assertEquals("An internal server error occurred.", fault.get("faultstring").asText());
        assertTrue(fault.get("debuginfo").isNull());
        assertFalse(response.asString().contains("Exception"), response.asString());
        assertNotNull(response.header("X-OpenStack-Request-Id"));
        assertTrue(response.header("X-OpenStack-Request-Id").startsWith("req-"), response.header("X-OpenStack-Request-Id"));
    }

    // ---- helpers

    /** {@code method} on a fresh node (answered accepted, were anything sent) is a 400 and nothing is sent. */
    private void assertRefused(String method, String path, String body, String faultStart) throws Exception {
        String uuid = NodeTable.insert(jdbcUrl, NodeTable.Row.named(null));
        conductor.answer(uuid, intent -> FakeConductor.accepted(intent, 200, snapshot(uuid)));
        int before = conductor.intentsRead();
        String target = method.equals("POST") ? "/v1/nodes" : "/v1/nodes/" + uuid + path;
        RawHttp.Reply response = raw(method, target, body);
        assertEquals(400, response.status(), body + " -> " + response.body());
        String fault = clientFault(response.body());
        if (faultStart != null) {
            assertTrue(fault.startsWith(faultStart), fault);
        }
        assertTrue(fault.length() < 1000, "the message does not repeat a long value: " + fault.length());
        assertEquals(List.of(), conductor.intentsFor(uuid));
        assertEquals(before, conductor.intentsRead());
    }

    /** A request as sent, byte for byte: RestAssured and java.net.http would re-encode the URL or refuse it. */
    private RawHttp.Reply raw(String method, String target, String body) throws Exception {
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("X-OpenStack-Ironic-API-Version", "latest");
        if (body != null) {
            headers.put("Content-Type", "application/json");
        }
        return new RawHttp(root).send(method, target, headers,
                body == null ? null : body.getBytes(StandardCharsets.UTF_8), false);
    }

    private static String clientFault(String body) throws Exception {
        JsonNode fault = fault(body);
        assertEquals("Client", fault.get("faultcode").asText(), body);
        assertTrue(fault.has("debuginfo") && fault.get("debuginfo").isNull(), body);
        return fault.get("faultstring").asText();
    }

    private static JsonNode fault(String body) throws Exception {
        JsonNode outer = JSON.readTree(body);
        assertEquals(1, outer.size(), body);
        return JSON.readTree(outer.get("error_message").asText());
    }

    private static NodeSnapshot snapshot(String uuid) {
        return NodeSnapshot.newBuilder()
                .setUuid(uuid)
                .setRevision(2)
                .setDriver("fake-hardware")
                .setProvisionState("enroll")
                .setCreatedAt(Instant.now())
                .build();
    }
}
