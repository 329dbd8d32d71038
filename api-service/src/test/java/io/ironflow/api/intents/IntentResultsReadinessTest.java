package io.ironflow.api.intents;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.ironflow.deploy.testing.IronflowTestInfrastructure;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

/**
 * On a real broker: the first assignment starts at the end; a partition revoked and assigned again (the group
 * rejoining) resumes where this instance was, so the answers that came in between are still read.
 */
@QuarkusTest
@QuarkusTestResource(IronflowTestInfrastructure.class)
class IntentResultsReadinessTest {

    @ConfigProperty(name = "kafka.bootstrap.servers")
    String bootstrap;

    @Test
    void aPartitionAssignedAgainResumesWhereItWasNotAtTheEnd() throws Exception {
        String topic = "readiness-" + UUID.randomUUID();
        TopicPartition partition = new TopicPartition(topic, 0);
        try (org.apache.kafka.clients.admin.Admin admin = org.apache.kafka.clients.admin.Admin.create(
                Map.<String, Object>of(org.apache.kafka.clients.admin.AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
            admin.createTopics(List.of(new org.apache.kafka.clients.admin.NewTopic(topic, 1, (short) 1))).all().get();
        }
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName(),
                ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName()));
                KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                        ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName(),
                        ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName()))) {
            for (int i = 0; i < 3; i++) {
                producer.send(new ProducerRecord<>(topic, 0, null, new byte[] {(byte) i})).get();
            }
            consumer.assign(List.of(partition));
            IntentResultsReadiness readiness = new IntentResultsReadiness();
            readiness.onPartitionsAssigned(consumer, List.of(partition));
            assertEquals(3, consumer.position(partition), "the first assignment starts at the end");

            readiness.onPartitionsRevoked(consumer, List.of(partition));
            for (int i = 0; i < 2; i++) { // answers that come while the group rejoins
                producer.send(new ProducerRecord<>(topic, 0, null, new byte[] {(byte) i})).get();
            }
            consumer.seekToEnd(List.of(partition)); // what the consumer itself would do with auto.offset.reset=latest
            readiness.onPartitionsAssigned(consumer, List.of(partition));
            assertEquals(3, consumer.position(partition), "assigned again, it resumes where it was");
            assertEquals(2, consumer.poll(Duration.ofSeconds(10)).count(), "the answers that came meanwhile are read");
        }
    }
}
