package io.ironflow.deploy.infra;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ironflow.deploy.testing.TestDirectories;
import io.ironflow.schemas.Topic;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;

/**
 * An external principal that a later start no longer names loses its access: its password leaves the credentials
 * file, its SCRAM credential and its ACLs leave the broker; the services keep theirs.
 */
class SecureKafkaRevocationTest {

    @Test
    void aPrincipalNoLongerConfiguredIsRevoked() throws Exception {
        Path dataDir = Path.of(System.getProperty("ironflow.test.dir", "target/ironflow-test")).toAbsolutePath()
                .resolve(UUID.randomUUID().toString());
        KafkaSecurity before = KafkaSecurity.prepare(dataDir,
                new KafkaSecurity.Options(List.of("site-automation"), List.of(), null));
        String sitePassword = before.password("site-automation");
        int[] ports = Ports.free(2);
        try (KafkaBroker broker = KafkaBroker.start(dataDir, ports[0], ports[1], before)) {
            broker.createTopics(List.of(Topic.NODE_INTENTS));
            send(broker, before.clientProperties("site-automation"));

            KafkaSecurity after = KafkaSecurity.prepare(dataDir, KafkaSecurity.Options.servicesOnly());
            try (Admin admin = broker.admin()) {
                after.apply(admin);
            }
            assertFalse(Files.readString(after.credentialsFile()).contains("site-automation"));
            Throwable refused = null;
            Instant deadline = Instant.now().plusSeconds(15); // the broker learns of the deletion through its metadata log
            while (refused == null && Instant.now().isBefore(deadline)) {
                try {
                    send(broker, before.clientProperties("site-automation", sitePassword));
                    Thread.sleep(200);
                } catch (ExecutionException | RuntimeException e) {
                    refused = e instanceof ExecutionException ? e.getCause() : e;
                }
            }
            assertInstanceOf(SaslAuthenticationException.class, refused);
            send(broker, after.clientProperties(KafkaAccess.API)); // the services' ACLs were made again
            assertTrue(after.password(KafkaAccess.API).equals(before.password(KafkaAccess.API)));
        } finally {
            TestDirectories.deleteRecursively(dataDir);
        }
    }

    private static void send(KafkaBroker broker, Map<String, Object> security) throws Exception {
        Map<String, Object> config = new HashMap<>(security);
        config.put("bootstrap.servers", broker.bootstrapServers());
        config.put("max.block.ms", "10000");
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(config, new ByteArraySerializer(),
                new ByteArraySerializer())) {
            producer.send(new ProducerRecord<>(Topic.NODE_INTENTS.topicName(), "n1".getBytes(StandardCharsets.UTF_8),
                    "x".getBytes(StandardCharsets.UTF_8))).get();
        }
    }
}
