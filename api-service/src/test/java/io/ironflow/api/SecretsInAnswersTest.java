package io.ironflow.api;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.eclipse.microprofile.config.ConfigProvider;
import org.jboss.logging.Logger;
import org.junit.jupiter.api.Test;

/**
 * A secret in the rows the conductor writes (driver_info, instance_info, last_error, a history event) and in a
 * conductor's refusal appears in no answer of the API (node show, list with fields, detail, history, history
 * detail, the error body) and in no line of its log: the API masks with the one rule whatever a producer sent.
 */
@QuarkusTest
class SecretsInAnswersTest extends WithFakeConductor {

    static final Logger LOG = Logger.getLogger(SecretsInAnswersTest.class);

    @Test
    void aPlantedSecretIsMaskedInEveryAnswerAndLogLine() throws Exception {
        String secret = "planted-" + UUID.randomUUID();
        String uuid = NodeTable.insert(jdbcUrl, NodeTable.Row.named("secret-" + secret.substring(8, 16)));
        NodeTable.execute(jdbcUrl, "UPDATE nodes SET driver_info = ?::jsonb, instance_info = ?::jsonb, last_error = ?"
                + " WHERE uuid = ?", "{\"ipmi_password\": \"" + secret + "\", \"ipmi_address\": \"10.0.0.7\"}",
                "{\"configdrive\": \"" + secret + "\", \"image_checksum\": \"" + secret + "\", \"rescue_password\": \""
                        + secret + "\"}", "ipmitool -I lanplus -U admin password=" + secret + " failed",
                UUID.fromString(uuid));
        NodeTable.execute(jdbcUrl, "INSERT INTO node_history (event_id, node_uuid, created_at, severity, event_type,"
                + " event, conductor, requester, intent_id, from_state, to_state, transition) VALUES"
                + " (?, ?, ?, 'ERROR', 'provisioning', ?, 'c1', 'anonymous', 'i-1', 'deploying', 'deploy failed', 'fail')",
                UUID.randomUUID(), UUID.fromString(uuid), Timestamp.from(Instant.now()), "deploy failed: token=" + secret);
        conductor.answer(uuid, intent -> FakeConductor.refused(intent, 400,
                "Invalid input for field/attribute description. Value: '{ipmi_password=" + secret + "}'. Wrong type."));

        Response node = Api.latest().get("/v1/nodes/" + uuid);
        assertEquals(200, node.statusCode(), node.asString());
        assertEquals("******", node.path("driver_info.ipmi_password"));
        assertEquals("10.0.0.7", node.path("driver_info.ipmi_address"));
        assertEquals("******", node.path("instance_info.configdrive"));
        assertEquals("******", node.path("instance_info.image_checksum"));
        assertEquals("******", node.path("instance_info.rescue_password"));
        assertEquals("ipmitool -I lanplus -U admin password=****** failed", node.path("last_error"));

        // The first answer of a fresh fake conductor can take longer than the API's 3 s wait (a 503): ask again.
        Response refused = await().atMost(Duration.ofSeconds(30)).until(() -> Api.latest().contentType("application/json")
                .body("[{\"op\": \"replace\", \"path\": \"/description\", \"value\": \"x\"}]")
                .patch("/v1/nodes/" + uuid), answer -> answer.statusCode() != 503);
        assertEquals(400, refused.statusCode(), refused.asString());
        assertTrue(refused.asString().contains("ipmi_password=******"), refused.asString());

        List<Response> answers = List.of(node, refused,
                Api.latest().get("/v1/nodes?fields=uuid,driver_info,instance_info,last_error&limit=1000"),
                Api.latest().get("/v1/nodes/detail?limit=1000"),
                Api.latest().get("/v1/nodes/" + uuid + "/history"),
                Api.latest().get("/v1/nodes/" + uuid + "/history/detail"),
                Api.latest().get("/v1/nodes/" + uuid + "/states"));
        for (Response answer : answers) {
            assertFalse(answer.asString().contains(secret), answer.asString());
        }
        assertTrue(answers.get(2).asString().contains(uuid) && answers.get(3).asString().contains(uuid)
                && answers.get(5).asString().contains("token=******"), "the node and its event were answered");
        assertEquals("ipmitool -I lanplus -U admin password=****** failed", answers.get(6).path("last_error"));

        LOG.infof("a client sent {\"rescue_password\": \"%s\"}", secret); // through the service's handlers
        String log = Files.readString(Path.of(ConfigProvider.getConfig().getValue("quarkus.log.file.path", String.class)));
        assertTrue(log.contains("a client sent"), "the line was logged");
        assertFalse(log.contains(secret), "the API's log holds the secret");
    }

    /**
     * What a node's steps and BIOS carry is masked as driver_info is (issue 58): a clean step's arguments in the
     * node's clean_step and in the agent's cached steps, and a BIOS setting that names a secret (oslo's keys).
     */
    @Test
    void cleanStepsAndBiosValuesAreMasked() {
        String secret = "planted-" + UUID.randomUUID();
        String uuid = NodeTable.insert(jdbcUrl, NodeTable.Row.named("steps-" + secret.substring(8, 16)));
        String step = "{\"interface\": \"deploy\", \"step\": \"write_image\", \"priority\": 10, \"abortable\": false,"
                + " \"args\": {\"adminPass\": \"" + secret + "\", \"notes\": \"sys_pswd=" + secret + "\"}}";
        NodeTable.execute(jdbcUrl, "UPDATE nodes SET clean_step = ?::jsonb, driver_internal_info = jsonb_build_object("
                + "'agent_cached_clean_steps', jsonb_build_object('deploy', jsonb_build_array(?::jsonb)),"
                + " 'fake_hardware', jsonb_build_object('bios_settings', jsonb_build_object('AdminPassword', ?::text,"
                + " 'ProcVirtualization', 'Enabled'))) WHERE uuid = ?", step, step, secret, UUID.fromString(uuid));
        Response node = Api.latest().get("/v1/nodes/" + uuid);
        assertEquals("******", node.path("clean_step.args.adminPass"), node.asString());
        Response steps = Api.latest().get("/v1/nodes/" + uuid + "/cleaning/steps");
        assertEquals(200, steps.statusCode(), steps.asString());
        Response bios = Api.latest().get("/v1/nodes/" + uuid + "/bios");
        assertTrue(bios.asString().contains("Enabled"), bios.asString());
        Response setting = Api.latest().get("/v1/nodes/" + uuid + "/bios/AdminPassword");
        for (Response answer : List.of(node, steps, bios, setting)) {
            assertFalse(answer.asString().contains(secret), answer.asString());
        }
    }
}
