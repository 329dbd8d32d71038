package io.ironflow.conductor.scenarios;

import io.ironflow.conductor.testing.Conductor;
import io.ironflow.conductor.testing.ConductorScenario;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.ironflow.deploy.testing.IronflowTestInfrastructure;
import io.ironflow.events.IntentResult;
import io.ironflow.schemas.SecretFields;
import io.ironflow.schemas.Topic;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.eclipse.microprofile.config.ConfigProvider;
import org.jboss.logging.Logger;
import org.junit.jupiter.api.Test;

/**
 * A secret planted in driver_info, instance_info (config drive, image URL and checksum, rescue password), a
 * rescue verb and a refused patch appears in no record the conductor writes (node-state, node-events,
 * intent-results, every other topic, read from the start with a real consumer, as bytes), in no error message
 * and in no line of its log. node-intents is the one topic that carries it in clear (it is how it reaches the
 * conductor): finding it there shows the search can find it.
 */
@QuarkusTest
@QuarkusTestResource(IronflowTestInfrastructure.class)
class SecretsNowhereTest extends ConductorScenario {

    static final Logger LOG = Logger.getLogger(SecretsNowhereTest.class);

    @Test
    void aPlantedSecretIsMaskedInEveryRecordErrorAndLogLine() throws Exception {
        String secret = "planted-" + UUID.randomUUID();
        String node = conductor.create(Map.of("ipmi_address", "10.0.0.9", "ipmi_password", secret,
                "redfish", Map.of("auth_token", secret)));
        IntentResult patched = conductor.patch(node, Conductor.json(List.of(Map.of("op", "add", "path", "/instance_info",
                "value", Map.of("configdrive", secret, "image_checksum", secret, "image_url", "http://x/?" + secret,
                        "rescue_password", secret, "image_source", "glance://centos")))));
        assertEquals(200, patched.getCode(), patched.getErrorMessage());
        Map<?, ?> instanceInfo = new ObjectMapper().readValue(patched.getNode().getInstanceInfo(), Map.class);
        assertEquals(Map.of("configdrive", SecretFields.MASK, "image_checksum", SecretFields.MASK, "image_url",
                SecretFields.MASK, "rescue_password", SecretFields.MASK, "image_source", "glance://centos"), instanceInfo);

        // A patch puts credentials where a text belongs: the refusal quotes the value, masked.
        IntentResult refused = conductor.patch(node, Conductor.json(List.of(Map.of("op", "replace", "path", "/description",
                "value", Map.of("ipmi_password", secret)))));
        assertEquals(400, refused.getCode());
        assertTrue(refused.getErrorMessage().contains("ipmi_password=" + SecretFields.MASK), refused.getErrorMessage());

        conductor.drive(node, "manage", "manageable");
        conductor.drive(node, "provide", "available");
        conductor.drive(node, "active", "active");
        assertEquals(202, conductor.rescue(node, secret).getCode());
        conductor.awaitState(node, "rescue");
        LOG.infof("an operator's tool logs what it sent: {\"ipmi_password\": \"%s\"}", secret); // through the service's handlers

        assertEquals(secret, conductor.column(node, "driver_info->>'ipmi_password'"), "the conductor keeps the secret itself");
        assertTrue(holds(conductor.recordsOn(Topic.NODE_INTENTS.topicName()), secret),
                "node-intents carries it to the conductor, so the search below can find it");
        for (Topic topic : Topic.values()) {
            if (topic == Topic.NODE_INTENTS || topic == Topic.NODE_INTENTS_DLQ) {
                continue; // the input itself, and its dead letters (the same records, under the same ACL)
            }
            assertFalse(holds(conductor.recordsOn(topic.topicName()), secret), topic.topicName() + " holds the secret");
        }
        assertTrue(holds(conductor.recordsOn(Topic.NODE_STATE.topicName()), SecretFields.MASK), "the snapshots show the mask");

        Path log = Path.of(ConfigProvider.getConfig().getValue("quarkus.log.file.path", String.class));
        String lines = Files.readString(log);
        assertTrue(lines.contains("an operator's tool logs what it sent") && lines.contains("ipmi_password"),
                "the line was logged (the file is JSON, so its quotes are escaped)");
        assertFalse(lines.contains(secret), "the conductor's log holds the secret");
    }

    private static boolean holds(List<byte[]> records, String text) {
        return records.stream().anyMatch(r -> r != null && new String(r, StandardCharsets.ISO_8859_1).contains(text));
    }
}
