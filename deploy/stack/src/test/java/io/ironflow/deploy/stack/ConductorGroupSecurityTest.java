package io.ironflow.deploy.stack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.ironflow.deploy.infra.KafkaBroker;
import io.ironflow.deploy.infra.KafkaSecurity;
import io.ironflow.deploy.infra.Ports;
import io.ironflow.schemas.Topic;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.errors.GroupAuthorizationException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ./ironflow bench --scale} against a {@code --secure} stack: it reads the conductors' consumer group with
 * the conductor's own login, which the launcher kept in {@code secrets/conductor-service.properties} (written here
 * as the launcher writes it), on a real secure broker; another principal's login is refused the group. (The extra
 * conductors take the same file through the launcher's conductor's command line, which they copy.)
 */
class ConductorGroupSecurityTest {

    @TempDir
    Path dataDir;

    @Test
    void theBenchmarkReadsTheConductorsGroupAsTheConductor() throws Exception {
        KafkaSecurity security = KafkaSecurity.prepare(dataDir, new KafkaSecurity.Options(List.of(), List.of(), null));
        for (String service : List.of(StackOptions.CONDUCTOR, StackOptions.DASHBOARD)) {
            Properties kept = new Properties();
            kept.putAll(security.serviceConfig(StackOptions.kafkaPrincipal(service)));
            KafkaSecurity.writePrivately(dataDir.resolve("secrets").resolve(service + ".properties"), kept, "as LocalStack");
        }
        int[] ports = Ports.free(2);
        try (KafkaBroker broker = KafkaBroker.start(dataDir, ports[0], ports[1], security)) {
            broker.createTopics(List.of(Topic.NODE_INTENTS));
            Map<String, Object> conductor = StackSecrets.kafkaClient(dataDir, StackOptions.CONDUCTOR);
            Map<String, Object> member = new HashMap<>(conductor);
            member.keySet().removeIf(key -> key.startsWith("apicurio."));
            member.put("bootstrap.servers", broker.bootstrapServers());
            member.put("group.id", ConductorGroup.GROUP);
            try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(member, new ByteArrayDeserializer(),
                    new ByteArrayDeserializer()); Admin admin = ConductorGroup.groupAdmin(broker.bootstrapServers(), conductor)) {
                consumer.subscribe(List.of(Topic.NODE_INTENTS.topicName()));
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                while (consumer.assignment().isEmpty() && System.nanoTime() < deadline) {
                    consumer.poll(Duration.ofMillis(200));
                }
                var group = admin.describeConsumerGroups(List.of(ConductorGroup.GROUP)).all().get(20, TimeUnit.SECONDS)
                        .get(ConductorGroup.GROUP);
                assertEquals(1, group.members().size(), group.toString());
                assertEquals(Topic.NODE_INTENTS.partitions(), group.members().iterator().next().assignment().topicPartitions().size());
            }
            try (Admin admin = ConductorGroup.groupAdmin(broker.bootstrapServers(),
                    StackSecrets.kafkaClient(dataDir, StackOptions.DASHBOARD))) {
                ExecutionException refused = assertThrows(ExecutionException.class,
                        () -> admin.describeConsumerGroups(List.of(ConductorGroup.GROUP)).all().get(20, TimeUnit.SECONDS));
                assertInstanceOf(GroupAuthorizationException.class, refused.getCause(), String.valueOf(refused.getCause()));
            }
        }
    }
}
