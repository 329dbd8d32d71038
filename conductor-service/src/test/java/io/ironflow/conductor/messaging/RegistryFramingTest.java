package io.ironflow.conductor.messaging;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.apicurio.registry.serde.avro.AvroKafkaDeserializer;
import io.apicurio.registry.serde.avro.AvroKafkaSerializer;
import io.ironflow.deploy.testing.IronflowTestInfrastructure;
import io.ironflow.events.IntentResult;
import io.ironflow.events.NodeEvent;
import io.ironflow.schemas.Topic;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;
import org.apache.avro.specific.SpecificRecordBase;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

/**
 * The outbox's framing against the registry's own serde, on a real registry: the bytes the relay publishes as
 * they are must be the very bytes the Kafka producer's Apicurio serializer would have written for the record, and
 * a consumer's deserializer must read them back to the same record.
 */
@QuarkusTest
@QuarkusTestResource(IronflowTestInfrastructure.class)
class RegistryFramingTest {

    @ConfigProperty(name = "mp.messaging.connector.smallrye-kafka.apicurio.registry.url")
    String registryUrl;

    @Test
    void framedBytesAreWhatTheProducersSerializerWritesAndConsumersReadBack() {
        NodeEvent event = NodeEvent.newBuilder().setEventId(UUID.randomUUID().toString()).setNodeUuid(UUID.randomUUID().toString())
                .setFromState("manageable").setEvent("provide").setToState("cleaning").setConductor("framing-test")
                .setOccurredAt(Instant.ofEpochMilli(1_700_000_000_000L)).build();
        IntentResult result = IntentResult.newBuilder().setIntentId("i-1").setNodeUuid(event.getNodeUuid()).setAccepted(true)
                .setCode(202).setConductor("framing-test").setCompletedAt(Instant.ofEpochMilli(1_700_000_000_001L)).build();
        for (var entry : Map.<Topic, SpecificRecordBase>of(Topic.NODE_EVENTS, event, Topic.INTENT_RESULTS, result).entrySet()) {
            String topic = entry.getKey().topicName();
            byte[] framed = RegistryFraming.frame(topic, entry.getValue());
            try (AvroKafkaSerializer<SpecificRecordBase> serializer = new AvroKafkaSerializer<>();
                    AvroKafkaDeserializer<SpecificRecordBase> deserializer = new AvroKafkaDeserializer<>()) {
                serializer.configure(Map.of("apicurio.registry.url", registryUrl, "apicurio.registry.auto-register", "true"), false);
                deserializer.configure(Map.of("apicurio.registry.url", registryUrl,
                        "apicurio.registry.use-specific-avro-reader", "true"), false);
                assertArrayEquals(serializer.serialize(topic, entry.getValue()), framed, topic);
                assertEquals(entry.getValue(), deserializer.deserialize(topic, framed), topic);
            }
        }
    }

    @Test
    void aNodeEventsTransitionIsKeptForTheRelaysMetrics() {
        NodeEvent created = NodeEvent.newBuilder().setEventId("e").setNodeUuid("n").setEvent("create").setToState("enroll")
                .setConductor("c").setOccurredAt(Instant.EPOCH).build();
        assertEquals("|create|enroll", Outbox.transition(created));
        created.setFromState("enroll");
        created.setToState(null);
        assertEquals("enroll|create|", Outbox.transition(created));
    }
}
