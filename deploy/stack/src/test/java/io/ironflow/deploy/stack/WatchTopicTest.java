package io.ironflow.deploy.stack;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ironflow.deploy.infra.KafkaBroker;
import io.ironflow.deploy.infra.Ports;
import io.ironflow.schemas.Topic;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ./ironflow watch} on a real broker: a record that does not decode is printed with its offset and passed
 * over, and the records after it are still printed (a tombstone as "(deleted)", which needs no registry).
 */
class WatchTopicTest {

    @TempDir
    Path dataDir;

    @Test
    void aRecordThatDoesNotDecodeIsPrintedAndPassedOver() throws Exception {
        int[] ports = Ports.free(2);
        try (KafkaBroker broker = KafkaBroker.start(dataDir, ports[0], ports[1])) {
            broker.createTopics(List.of(Topic.NODE_STATE));
            String topic = Topic.NODE_STATE.topicName();
            try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(Map.of("bootstrap.servers", broker.bootstrapServers()),
                    new StringSerializer(), new ByteArraySerializer())) {
                // One key: one partition, so the tombstone comes after the poison record.
                producer.send(new ProducerRecord<>(topic, "node-a", "not avro".getBytes(StandardCharsets.UTF_8))).get();
                producer.send(new ProducerRecord<>(topic, "node-a", null)).get();
            }
            ByteArrayOutputStream printed = new ByteArrayOutputStream();
            PrintStream out = new PrintStream(printed, true, StandardCharsets.UTF_8);
            Thread watcher = new Thread(() -> WatchTopic.watch(topic, Map.of(), broker.bootstrapServers(),
                    "http://127.0.0.1:1/apis/registry/v2", out), "watch");
            watcher.setDaemon(true);
            watcher.start();
            try {
                await().atMost(Duration.ofSeconds(60)).until(() -> printed.toString(StandardCharsets.UTF_8).contains("node-a\t(deleted)"));
                String text = printed.toString(StandardCharsets.UTF_8);
                assertTrue(text.contains("offset 0 cannot be decoded"), text);
            } finally {
                watcher.interrupt();
                watcher.join(Duration.ofSeconds(30).toMillis());
            }
            assertTrue(!watcher.isAlive(), "the watcher ends when interrupted");
        }
    }
}
