package io.ironflow.conductor.scenarios;

import io.ironflow.conductor.testing.ConductorScenario;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ironflow.conductor.work.ConductorIdentity;
import io.ironflow.deploy.testing.IronflowTestInfrastructure;
import io.ironflow.events.IntentResult;
import io.ironflow.events.ValidateNode;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The conductor's side of the drivers API, on real Kafka and PostgreSQL: the driver registration it writes at
 * start-up, ValidateNode answered without touching the node, and the agent clean-step cache written when
 * cleaning first runs.
 */
@QuarkusTest
@QuarkusTestResource(IronflowTestInfrastructure.class)
class DriversAndValidationTest extends ConductorScenario {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Inject
    ConductorIdentity identity;

    @Test
    void theConductorRegistersItsDriversAtStartUp() throws Exception {
        String where = " FROM conductor_drivers WHERE conductor = '" + identity.name() + "' AND driver = 'fake-hardware'";
        assertEquals("1", conductor.query("SELECT count(*)" + where));
        JsonNode interfaces = JSON.readTree(conductor.query("SELECT interfaces" + where));
        assertEquals(12, interfaces.size(), interfaces.toString());
        assertEquals("fake", interfaces.at("/power/default").asText());
        assertEquals("[\"fake\",\"no-bios\"]", interfaces.at("/bios/enabled").toString());
        assertEquals("no-console", interfaces.at("/console/default").asText());
        assertEquals("noop", interfaces.at("/network/default").asText());
        assertEquals("no-vendor", interfaces.at("/vendor/default").asText());

        JsonNode properties = JSON.readTree(conductor.query("SELECT properties" + where));
        for (String key : List.of("fake_agent_steps", "fake_fail_steps", "fake_fail_verify", "fake_step_seconds")) {
            assertTrue(properties.path(key).asText().endsWith("Optional."), key + " in " + properties);
        }

        JsonNode steps = JSON.readTree(conductor.query("SELECT clean_steps" + where));
        assertEquals(8, steps.size());
        JsonNode raid = steps.get(6);
        assertEquals("raid", raid.get("interface").asText());
        assertEquals("create_configuration", raid.get("step").asText());
        assertEquals(0, raid.get("priority").asInt());
        assertTrue(raid.get("abortable").asBoolean());
        assertEquals("create_root_volume", raid.at("/args/0/name").asText());
        assertFalse(raid.at("/args/0/required").asBoolean());

        // The API lists drivers of conductors that heartbeat: this one does.
        assertNotNull(conductor.query("SELECT heartbeat_at FROM conductors WHERE hostname = '" + identity.name() + "'"));
    }

    @Test
    void validateAnswersEveryInterfaceWithoutTouchingTheNode() throws Exception {
        String node = conductor.create(Map.of());
        String revision = conductor.column(node, "revision");
        IntentResult result = conductor.send(node, new ValidateNode());
        assertTrue(result.getAccepted(), result.getErrorMessage());
        assertEquals(200, result.getCode());
        JsonNode doc = JSON.readTree(result.getValidation());
        assertEquals(List.of("bios", "boot", "console", "deploy", "inspect", "management", "network", "power", "raid",
                "rescue", "storage"), iterable(doc.fieldNames()));
        assertEquals("{\"result\":true}", doc.get("power").toString());
        assertEquals("{\"result\":true}", doc.get("deploy").toString(), "fake deploy needs no instance_info");
        assertEquals("{\"result\":null,\"reason\":\"not supported\"}", doc.get("console").toString());
        assertEquals(node, result.getNode().getUuid());

        assertEquals(revision, conductor.column(node, "revision"), "validate changes nothing");
        assertNull(conductor.column(node, "reservation"));
        assertEquals("0", conductor.query("SELECT count(*) FROM processed_intents WHERE node_uuid = '" + node + "' AND code = 200"));
    }

    @Test
    void badDriverInfoFailsPowerAndManagementWithTheReason() throws Exception {
        String node = conductor.create(Map.of("fake_fail_verify", true, "fake_agent_steps", "yes"));
        JsonNode doc = JSON.readTree(conductor.send(node, new ValidateNode()).getValidation());
        for (String iface : List.of("power", "management")) {
            assertFalse(doc.at("/" + iface + "/result").asBoolean(true), doc.toString());
            String reason = doc.at("/" + iface + "/reason").asText();
            assertTrue(reason.contains("driver_info.fake_fail_verify is set"), reason);
            assertTrue(reason.contains("driver_info.fake_agent_steps must be a boolean"), reason);
        }
        assertEquals("{\"result\":true}", doc.get("boot").toString());
    }

    /**
     * PATCH /driver (openstack baremetal node set --driver): to a driver this conductor has, the node takes it and
     * its interfaces (validate answers for the new driver); to one it lacks, or removed, 400 and nothing changes.
     */
    @Test
    void theDriverIsChangedToOneTheConductorHasAndOnlyThat() throws Exception {
        String node = conductor.create(Map.of());
        IntentResult unknown = conductor.patch(node, "[{\"op\": \"replace\", \"path\": \"/driver\", \"value\": \"ipmi\"}]");
        assertEquals(400, unknown.getCode());
        assertTrue(unknown.getErrorMessage().contains("No valid host was found"), unknown.getErrorMessage());
        IntentResult removed = conductor.patch(node, "[{\"op\": \"remove\", \"path\": \"/driver\"}]");
        assertEquals(400, removed.getCode());
        assertEquals("fake-hardware", conductor.column(node, "driver"), "a refused patch changes nothing");

        IntentResult oneview = conductor.patch(node, "[{\"op\": \"replace\", \"path\": \"/driver\", \"value\": \"oneview\"}]");
        assertEquals(200, oneview.getCode(), oneview.getErrorMessage());
        assertEquals("oneview", oneview.getNode().getDriver());
        assertEquals("oneview", conductor.column(node, "driver"));
        JsonNode doc = JSON.readTree(conductor.send(node, new ValidateNode()).getValidation());
        assertFalse(doc.at("/power/result").asBoolean(true), doc.toString());
        assertTrue(doc.at("/power/reason").asText().contains("server_hardware_uri"), doc.toString());
        assertEquals("{\"result\":null,\"reason\":\"not supported\"}", doc.get("bios").toString(), "oneview's interfaces");

        IntentResult back = conductor.patch(node, "[{\"op\": \"replace\", \"path\": \"/driver\", \"value\": \"fake-hardware\"}]");
        assertEquals(200, back.getCode(), back.getErrorMessage());
        assertEquals("{\"result\":true}", JSON.readTree(conductor.send(node, new ValidateNode()).getValidation()).get("power").toString());
    }

    @Test
    void validatingAnUnknownNodeIs404() {
        IntentResult result = conductor.send(UUID.randomUUID().toString(), new ValidateNode());
        assertFalse(result.getAccepted());
        assertEquals(404, result.getCode());
        assertNull(result.getValidation());
    }

    @Test
    void agentStepsAreCachedWhenCleaningFirstRuns() throws SQLException {
        String node = conductor.create(Map.of("fake_agent_steps", true));
        conductor.drive(node, "manage", "manageable");
        assertNull(conductor.column(node, "driver_internal_info->'agent_cached_clean_steps'"), "unknown before cleaning");
        conductor.drive(node, "provide", "available");
        assertEquals("bios,deploy,management,raid", conductor.column(node,
                "(SELECT string_agg(k, ',' ORDER BY k) FROM jsonb_object_keys(driver_internal_info->'agent_cached_clean_steps') k)"));
        assertEquals("erase_devices_metadata", conductor.column(node,
                "driver_internal_info->'agent_cached_clean_steps'->'deploy'->1->>'step'"));
        assertEquals("99", conductor.column(node,
                "driver_internal_info->'agent_cached_clean_steps'->'deploy'->1->>'priority'"));
        assertNotNull(conductor.column(node, "driver_internal_info->>'agent_cached_clean_steps_refreshed'"));

        String plain = conductor.create(Map.of());
        conductor.drive(plain, "manage", "manageable");
        conductor.drive(plain, "provide", "available");
        assertNull(conductor.column(plain, "driver_internal_info->'agent_cached_clean_steps'"), "no agent, no cache");
    }

    private static List<String> iterable(java.util.Iterator<String> names) {
        List<String> list = new java.util.ArrayList<>();
        names.forEachRemaining(list::add);
        return list;
    }
}
