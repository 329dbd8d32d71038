package io.ironflow.deploy.infra;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.ironflow.deploy.testing.TestDirectories;
import io.ironflow.schemas.Topic;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;

/**
 * The secure broker with a key store: its client listener speaks SASL_SSL, clients verify it with the trust store,
 * and the ACLs hold as on SASL_PLAINTEXT. The key store is made here by the JDK's keytool, for 127.0.0.1.
 */
class SecureKafkaTlsTest {

    @Test
    void saslSslWithTheSameAcls() throws Exception {
        Path dataDir = Path.of(System.getProperty("ironflow.test.dir", "target/ironflow-test")).toAbsolutePath()
                .resolve(UUID.randomUUID().toString());
        Files.createDirectories(dataDir);
        Path keyStore = dataDir.resolve("broker.p12");
        Process keytool = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
                "-genkeypair", "-alias", "broker", "-keyalg", "RSA", "-keysize", "2048", "-dname", "CN=127.0.0.1",
                "-ext", "SAN=ip:127.0.0.1", "-validity", "2", "-storetype", "PKCS12", "-keystore", keyStore.toString(),
                "-storepass", "store-secret", "-keypass", "store-secret").inheritIO().start();
        assertEquals(0, keytool.waitFor());
        KafkaSecurity security = KafkaSecurity.prepare(dataDir, new KafkaSecurity.Options(List.of(), List.of(),
                new KafkaSecurity.Tls(keyStore, "store-secret", keyStore, "store-secret")));
        int[] ports = Ports.free(2);
        try (KafkaBroker broker = KafkaBroker.start(dataDir, ports[0], ports[1], security)) {
            broker.createTopics(List.of(Topic.NODE_INTENTS));
            assertEquals("SASL_SSL", security.clientProperties(KafkaAccess.API).get("security.protocol"));
            send(broker, security.clientProperties(KafkaAccess.API));
            ExecutionException refused = assertThrows(ExecutionException.class,
                    () -> send(broker, security.clientProperties(KafkaAccess.DASHBOARD)));
            assertInstanceOf(TopicAuthorizationException.class, refused.getCause());
        } finally {
            TestDirectories.deleteRecursively(dataDir);
        }
    }

    private static void send(KafkaBroker broker, Map<String, Object> security) throws Exception {
        Map<String, Object> config = new HashMap<>(security);
        config.put("bootstrap.servers", broker.bootstrapServers());
        config.put("max.block.ms", "20000");
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(config, new ByteArraySerializer(),
                new ByteArraySerializer())) {
            producer.send(new ProducerRecord<>(Topic.NODE_INTENTS.topicName(), "n1".getBytes(StandardCharsets.UTF_8),
                    "x".getBytes(StandardCharsets.UTF_8))).get();
        }
    }
}
