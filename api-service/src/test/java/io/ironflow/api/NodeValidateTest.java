package io.ironflow.api;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.ironflow.events.IntentResult;
import io.ironflow.events.NodeIntent;
import io.ironflow.events.ValidateNode;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import java.time.Duration;
import java.util.List;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * GET /v1/nodes/{ident}/validate on real Kafka, registry and PostgreSQL. The conductor is the authority (its
 * side is tested in conductor-service); here {@link FakeConductor} answers the ValidateNode intent in its place.
 */
@QuarkusTest
class NodeValidateTest extends WithFakeConductor {

    private static final String DOCUMENT = "{\"bios\": {\"result\": true}, \"boot\": {\"result\": true},"
            + " \"console\": {\"result\": null, \"reason\": \"not supported\"}, \"deploy\": {\"result\": true},"
            + " \"inspect\": {\"result\": true}, \"management\": {\"result\": false, \"reason\": \"fake-hardware: driver_info.fake_fail_verify is set\"},"
            + " \"network\": {\"result\": true}, \"power\": {\"result\": false, \"reason\": \"fake-hardware: driver_info.fake_fail_verify is set\"},"
            + " \"raid\": {\"result\": true}, \"rescue\": {\"result\": true}, \"storage\": {\"result\": true}}";
    @Test
    void theConductorsDocumentIsRenderedAsIs() throws Exception {
        String name = "validate-" + java.util.UUID.randomUUID().toString().substring(0, 8);
        String uuid = NodeTable.insert(jdbcUrl, NodeTable.Row.named(name));
        conductor.answer(uuid, intent -> validation(intent, DOCUMENT));

        JsonNode doc = DriversTest.json(given().get("/v1/nodes/" + name + "/validate"), 200);
        assertEquals(11, doc.size());
        assertEquals("{\"result\":true}", doc.get("boot").toString());
        assertEquals("{\"result\":null,\"reason\":\"not supported\"}", doc.get("console").toString());
        assertEquals(false, doc.at("/power/result").asBoolean(true));
        assertTrue(doc.at("/power/reason").asText().contains("fake_fail_verify"));

        List<NodeIntent> sent = conductor.intentsFor(uuid);
        assertEquals(1, sent.size(), "one ValidateNode, keyed by the node's uuid although asked by name");
        assertTrue(sent.get(0).getCommand() instanceof ValidateNode);
    }

    @Test
    void aRefusalIsIronicsErrorBody() throws Exception {
        String uuid = NodeTable.insert(jdbcUrl, NodeTable.Row.named(null));
        conductor.answer(uuid, intent -> FakeConductor.refused(intent, 400,
                "No valid host was found. Reason: No conductor service registered which supports driver ipmi."));
        Response response = given().get("/v1/nodes/" + uuid + "/validate");
        assertEquals(400, response.statusCode(), response.asString());
        assertTrue(DriversTest.fault(response).get("faultstring").asText().startsWith("No valid host was found."));
    }

    @Test
    void anUnknownNodeIs404AndNothingIsSent() throws Exception {
        int before = conductor.intentsRead();
        Response response = given().get("/v1/nodes/no-such-node/validate");
        assertEquals(404, response.statusCode());
        assertEquals("Node no-such-node could not be found.", DriversTest.fault(response).get("faultstring").asText());
        assertEquals(before, conductor.intentsRead());
    }

    @Test
    void noConductorAnsweringIs503() throws Exception {
        String uuid = NodeTable.insert(jdbcUrl, NodeTable.Row.named(null)); // the fake conductor was told nothing
        Response response = given().get("/v1/nodes/" + uuid + "/validate");
        assertEquals(503, response.statusCode(), response.asString());
    }

    private static IntentResult validation(NodeIntent intent, String document) {
        IntentResult result = FakeConductor.accepted(intent, 200, null);
        result.setValidation(document);
        return result;
    }
}
