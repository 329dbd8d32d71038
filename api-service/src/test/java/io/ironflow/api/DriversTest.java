package io.ironflow.api;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * GET /v1/drivers, /v1/drivers/{name} and /v1/drivers/{name}/properties on real PostgreSQL, from registrations
 * written as the conductor writes them ({@link DriverTable}): only drivers of heartbeating conductors count.
 */
@QuarkusTest
class DriversTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @ConfigProperty(name = "quarkus.datasource.jdbc.url")
    String jdbcUrl;

    @BeforeEach
    void registrations() {
        NodeTable.migrate(jdbcUrl);
        DriverTable.register(jdbcUrl);
    }

    @Test
    void theListHasTheDriversOfLiveConductorsOnly() throws Exception {
        JsonNode drivers = json(given().get("/v1/drivers"), 200).get("drivers");
        assertEquals(1, drivers.size(), drivers.toString()); // ipmi's only conductor stopped heartbeating
        JsonNode fake = drivers.get(0);
        assertEquals("fake-hardware", fake.get("name").asText());
        assertEquals("[\"" + DriverTable.LIVE + "\"]", fake.get("hosts").toString());
        assertEquals("dynamic", fake.get("type").asText());
        assertTrue(fake.at("/links/0/href").asText().endsWith("/v1/drivers/fake-hardware"));
        assertEquals("self", fake.at("/links/0/rel").asText());
        assertTrue(fake.at("/links/1/href").asText().endsWith("/drivers/fake-hardware"));
        assertFalse(fake.at("/links/1/href").asText().contains("/v1/"));
        assertEquals("bookmark", fake.at("/links/1/rel").asText());
        assertTrue(fake.at("/properties/0/href").asText().endsWith("/v1/drivers/fake-hardware/properties"));
        assertFalse(fake.has("default_power_interface"), "interfaces only with detail");

        DriverTable.heartbeat(jdbcUrl, DriverTable.SILENT, java.time.Instant.now());
        JsonNode both = json(given().get("/v1/drivers"), 200).get("drivers");
        assertEquals("[\"fake-hardware\",\"ipmi\"]", names(both));
        assertEquals("[\"" + DriverTable.LIVE + "\",\"" + DriverTable.SILENT + "\"]", both.get(0).get("hosts").toString());
    }

    @ParameterizedTest
    @ValueSource(strings = {"True", "true", "1", "yes"})
    void detailAddsEveryInterface(String detail) throws Exception {
        JsonNode fake = json(given().queryParam("detail", detail).get("/v1/drivers"), 200).at("/drivers/0");
        assertDetailed(fake);
    }

    @Test
    void oneDriverIsTheDetailedDocument() throws Exception {
        JsonNode fake = json(given().get("/v1/drivers/fake-hardware"), 200);
        assertDetailed(fake);
        assertEquals("[\"" + DriverTable.LIVE + "\"]", fake.get("hosts").toString());
    }

    @Test
    void propertiesAreTheDriverInfoKeysWithDescriptions() throws Exception {
        JsonNode properties = json(given().get("/v1/drivers/fake-hardware/properties"), 200);
        assertEquals("Set to true to make verification (manage) fail. Optional.", properties.get("fake_fail_verify").asText());
        assertEquals(2, properties.size());
    }

    @ParameterizedTest
    @ValueSource(strings = {"/v1/drivers/no-such-driver", "/v1/drivers/no-such-driver/properties", "/v1/drivers/ipmi",
            "/v1/drivers/ipmi/properties"})
    void anUnknownOrUnofferedDriverIs404(String path) throws Exception {
        Response response = given().get(path);
        assertEquals(404, response.statusCode(), response.asString());
        String name = path.split("/")[3];
        assertEquals("Could not find the following driver(s) or hardware type(s): " + name + ".", fault(response).get("faultstring").asText());
    }

    @Test
    void typeAndDetailAreChecked() throws Exception {
        assertEquals("[]", json(given().queryParam("type", "classic").get("/v1/drivers"), 200).get("drivers").toString());
        assertEquals(1, json(given().queryParam("type", "dynamic").get("/v1/drivers"), 200).get("drivers").size());
        assertFalse(json(given().queryParam("detail", "False").get("/v1/drivers"), 200).at("/drivers/0").has("default_boot_interface"));
        Response type = given().queryParam("type", "modern").get("/v1/drivers");
        assertEquals(400, type.statusCode());
        assertEquals("\"type\" must be one of \"classic\" or \"dynamic\", if specified.", fault(type).get("faultstring").asText());
        Response detail = given().queryParam("detail", "maybe").get("/v1/drivers");
        assertEquals(400, detail.statusCode());
        assertTrue(fault(detail).get("faultstring").asText().startsWith("Unrecognized value 'maybe'"));
    }

    private static void assertDetailed(JsonNode driver) {
        assertEquals("fake-hardware", driver.get("name").asText());
        assertEquals("fake", driver.get("default_power_interface").asText());
        assertEquals("fake", driver.get("default_deploy_interface").asText());
        assertEquals("no-console", driver.get("default_console_interface").asText());
        assertEquals("noop", driver.get("default_network_interface").asText());
        assertEquals("[\"fake\",\"no-bios\"]", driver.get("enabled_bios_interfaces").toString());
        assertEquals("[\"no-vendor\"]", driver.get("enabled_vendor_interfaces").toString());
        for (String type : new String[] {"bios", "boot", "console", "deploy", "inspect", "management", "network", "power",
                "raid", "rescue", "storage", "vendor"}) {
            assertTrue(driver.has("default_" + type + "_interface"), type);
            assertTrue(driver.get("enabled_" + type + "_interfaces").isArray(), type);
        }
        assertTrue(driver.has("links") && driver.has("properties"));
    }

    private static String names(JsonNode drivers) {
        StringBuilder names = new StringBuilder("[");
        drivers.forEach(d -> names.append(names.length() > 1 ? "," : "").append('"').append(d.get("name").asText()).append('"'));
        return names.append(']').toString();
    }

    static JsonNode json(Response response, int status) throws Exception {
        assertEquals(status, response.statusCode(), response.asString());
        return JSON.readTree(response.asString());
    }

    static JsonNode fault(Response response) throws Exception {
        return JSON.readTree(JSON.readTree(response.asString()).get("error_message").asText());
    }
}
