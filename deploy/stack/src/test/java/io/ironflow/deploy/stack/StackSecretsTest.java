package io.ironflow.deploy.stack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ironflow.deploy.infra.KafkaAccess;
import io.ironflow.deploy.infra.KafkaSecurity;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ./ironflow watch --data-dir} against a {@code --secure} stack: it logs in with exactly the read-only
 * principal's settings the launcher kept for the dashboard (written here as the launcher writes them), and with
 * nothing extra against an open stack.
 */
class StackSecretsTest {

    @TempDir
    Path dataDir;

    @Test
    void aSecureStacksWatcherUsesTheDashboardsReadOnlyLogin() throws Exception {
        KafkaSecurity security = KafkaSecurity.prepare(dataDir, new KafkaSecurity.Options(List.of(), List.of(), null));
        Properties kept = new Properties();
        kept.putAll(security.serviceConfig(KafkaAccess.DASHBOARD));
        KafkaSecurity.writePrivately(dataDir.resolve("secrets").resolve("dashboard.properties"), kept, "as LocalStack");

        Map<String, Object> client = StackSecrets.kafkaReader(dataDir);

        assertEquals("SASL_PLAINTEXT", client.get("security.protocol"));
        assertEquals("SCRAM-SHA-512", client.get("sasl.mechanism"));
        assertTrue(String.valueOf(client.get("sasl.jaas.config")).contains("username=\"" + KafkaAccess.DASHBOARD + "\"")
                && String.valueOf(client.get("sasl.jaas.config")).contains(security.password(KafkaAccess.DASHBOARD)));
        assertEquals(KafkaAccess.DASHBOARD, client.get("apicurio.registry.auth.username"));
        assertEquals(security.password(KafkaAccess.DASHBOARD), client.get("apicurio.registry.auth.password"));
        assertTrue(client.keySet().stream().noneMatch(key -> key.startsWith("kafka.")), client.keySet().toString());
    }

    @Test
    void anOpenStacksWatcherAddsNothing() throws Exception {
        Files.createDirectories(dataDir.resolve("secrets"));
        assertEquals(Map.of(), StackSecrets.kafkaReader(dataDir));
    }
}
