package io.ironflow.api;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import java.util.UUID;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * GET /v1/nodes/{ident}/cleaning/steps (seed 001) on real PostgreSQL: the driver's registered catalogue, or the
 * agent's steps the conductor cached in driver_internal_info, and 202 + Retry-Request-After before there are any.
 */
@QuarkusTest
class NodeCleaningStepsTest {

    @ConfigProperty(name = "quarkus.datasource.jdbc.url")
    String jdbcUrl;

    @BeforeEach
    void registrations() {
        NodeTable.migrate(jdbcUrl);
        DriverTable.register(jdbcUrl);
    }

    @Test
    void everyStepOfTheDriverHighestPriorityFirst() throws Exception {
        String name = "steps-" + UUID.randomUUID().toString().substring(0, 8);
        String uuid = NodeTable.insert(jdbcUrl, NodeTable.Row.named(name));
        for (String ident : new String[] {uuid, name}) {
            Response response = given().get("/v1/nodes/" + ident + "/cleaning/steps");
            JsonNode steps = DriversTest.json(response, 200);
            assertTrue(steps.isArray(), "a top-level array");
            assertEquals("[\"erase_devices_metadata\",\"erase_devices\",\"update_firmware\",\"factory_reset\",\"create_configuration\"]",
                    steps(steps), "by decreasing priority; equal priorities keep the catalogue's order");
            JsonNode raid = steps.get(4);
            java.util.List<String> keys = new java.util.ArrayList<>();
            raid.fieldNames().forEachRemaining(keys::add);
            assertEquals(java.util.List.of("interface", "step", "priority", "abortable", "args"), keys, "seed 001's order");
            assertEquals("raid", raid.get("interface").asText());
            assertEquals(0, raid.get("priority").asInt());
            assertTrue(raid.get("abortable").asBoolean());
            assertEquals("[{\"name\":\"create_root_volume\",\"description\":\"root\",\"required\":false}]", raid.get("args").toString());
        }
        assertEquals("[\"erase_devices_metadata\",\"erase_devices\"]",
                steps(DriversTest.json(given().queryParam("min_priority", 1).get("/v1/nodes/" + uuid + "/cleaning/steps"), 200)));
        assertEquals("[\"erase_devices_metadata\"]",
                steps(DriversTest.json(given().queryParam("min_priority", 99).get("/v1/nodes/" + uuid + "/cleaning/steps"), 200)));
        assertEquals("[]", DriversTest.json(given().queryParam("min_priority", 100).get("/v1/nodes/" + uuid + "/cleaning/steps"), 200).toString());
    }

    @ParameterizedTest
    @ValueSource(strings = {"high", "-1", "1.5", " "})
    void aBadMinPriorityIs400(String value) throws Exception {
        String uuid = NodeTable.insert(jdbcUrl, NodeTable.Row.named(null));
        Response response = given().queryParam("min_priority", value).get("/v1/nodes/" + uuid + "/cleaning/steps");
        assertEquals(400, response.statusCode(), response.asString());
        assertTrue(DriversTest.fault(response).get("faultstring").asText().contains("min_priority"));
    }

    @Test
    void anUnknownNodeIs404() throws Exception {
        Response response = given().get("/v1/nodes/no-such-node/cleaning/steps");
        assertEquals(404, response.statusCode());
        assertEquals("Node no-such-node could not be found.", DriversTest.fault(response).get("faultstring").asText());
    }

    @Test
    void aDriverNoLiveConductorOffersIs400() throws Exception {
        String uuid = NodeTable.insert(jdbcUrl, NodeTable.Row.named(null));
        DriverTable.execute(jdbcUrl, "UPDATE nodes SET driver = 'ipmi' WHERE uuid = ?::uuid", uuid);
        Response response = given().get("/v1/nodes/" + uuid + "/cleaning/steps");
        assertEquals(400, response.statusCode(), response.asString());
        assertEquals("No valid host was found. Reason: No conductor service registered which supports driver ipmi.",
                DriversTest.fault(response).get("faultstring").asText());
    }

    @Test
    void agentStepsAreUnknownUntilTheConductorCachedThem() throws Exception {
        String uuid = NodeTable.insert(jdbcUrl, NodeTable.Row.named(null));
        DriverTable.execute(jdbcUrl, "UPDATE nodes SET driver_info = '{\"fake_agent_steps\": true}' WHERE uuid = ?::uuid", uuid);
        String path = "/v1/nodes/" + uuid + "/cleaning/steps";

        Response enrolled = given().get(path);
        assertEquals(202, enrolled.statusCode(), enrolled.asString());
        assertEquals("-1", enrolled.header("Retry-Request-After"), "nobody knows when the agent will run");
        assertTrue(enrolled.contentType().startsWith("application/json"));
        assertTrue(DriversTest.json(enrolled, 202).get("message").asText().contains("not available yet"));

        DriverTable.execute(jdbcUrl, "UPDATE nodes SET provision_state = 'clean wait' WHERE uuid = ?::uuid", uuid);
        Response cleaning = given().get(path);
        assertEquals(202, cleaning.statusCode());
        assertEquals("10", cleaning.header("Retry-Request-After"), "the agent is reporting right now");

        String cache = "{\"deploy\": [" + DriverTable.step("deploy", "erase_devices", 10, true, "[]") + ", "
                + DriverTable.step("deploy", "erase_devices_metadata", 99, false, "[]") + "], \"raid\": ["
                + DriverTable.step("raid", "delete_configuration", 0, false, "[]") + "]}";
        DriverTable.execute(jdbcUrl, "UPDATE nodes SET provision_state = 'available', driver_internal_info ="
                + " jsonb_build_object('agent_cached_clean_steps', ?::jsonb) WHERE uuid = ?::uuid", cache, uuid);
        assertEquals("[\"erase_devices_metadata\",\"erase_devices\",\"delete_configuration\"]",
                steps(DriversTest.json(given().get(path), 200)), "the cache, not the driver's catalogue");
        assertEquals("[\"erase_devices_metadata\",\"erase_devices\"]",
                steps(DriversTest.json(given().queryParam("min_priority", "1").get(path), 200)));
    }

    private static String steps(JsonNode steps) {
        StringBuilder names = new StringBuilder("[");
        steps.forEach(s -> names.append(names.length() > 1 ? "," : "").append('"').append(s.get("step").asText()).append('"'));
        return names.append(']').toString();
    }
}
