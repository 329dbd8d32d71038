package io.ironflow.conductor.scenarios;

import io.ironflow.conductor.testing.Conductor;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import io.ironflow.deploy.testing.IronflowTestInfrastructure;
import io.ironflow.deploy.testing.KafkaTestClient;
import io.ironflow.events.CreateNode;
import io.ironflow.events.IntentResult;
import io.ironflow.events.NodeIntent;
import io.ironflow.schemas.Topic;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.Test;

/**
 * One trace from the producer of an intent to its result: the conductor's consumer span continues the record's
 * traceparent, its "apply" span is that span's child, and the intent result, published later by the outbox relay,
 * carries a traceparent of the same trace whose producer span is a child of the "apply" span.
 */
@QuarkusTest
@QuarkusTestResource(IronflowTestInfrastructure.class)
class TracingTest {

    /** The conductor exports its spans here (any SpanExporter bean is one of its exporters). */
    @Singleton
    static class Exporter {
        @Produces
        @Singleton
        InMemorySpanExporter inMemorySpanExporter() {
            return InMemorySpanExporter.create();
        }
    }

    @Inject
    InMemorySpanExporter spans;

    @Test
    void theIntentsResultIsInTheTraceOfItsRecord() {
        String traceId = "4bf92f3577b34da6a3ce929d0e0e4736";
        String producerSpan = "00f067aa0ba902b7";
        String uuid = UUID.randomUUID().toString();
        NodeIntent intent = Conductor.intent(uuid, CreateNode.newBuilder().setDriver("fake-hardware").build());
        try (KafkaTestClient kafka = KafkaTestClient.ofTestConfig()) {
            kafka.send(Topic.NODE_INTENTS.topicName(), uuid, intent,
                    Map.of("traceparent", "00-" + traceId + "-" + producerSpan + "-01"));
            List<ConsumerRecord<String, IntentResult>> results = kafka.read(Topic.INTENT_RESULTS.topicName(),
                    Duration.ofSeconds(30), records -> records.stream().anyMatch(r -> r.key().equals(uuid)));
            ConsumerRecord<String, IntentResult> result = results.stream().filter(r -> r.key().equals(uuid)).findFirst().orElseThrow();
            assertEquals(201, result.value().getCode());
            Header traceparent = result.headers().lastHeader("traceparent");
            assertNotNull(traceparent, "the intent result carries no traceparent");
            String[] parts = new String(traceparent.value(), StandardCharsets.UTF_8).split("-");
            assertEquals(traceId, parts[1], "the result is published in another trace");

            await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
                List<SpanData> trace = spans.getFinishedSpanItems().stream()
                        .filter(s -> s.getTraceId().equals(traceId)).toList();
                SpanData received = trace.stream().filter(s -> s.getParentSpanId().equals(producerSpan)).findFirst()
                        .orElseThrow(() -> new AssertionError("no consumer span continues the record's trace: " + trace));
                SpanData apply = trace.stream().filter(s -> s.getName().equals("apply CreateNode")).findFirst()
                        .orElseThrow(() -> new AssertionError("no apply span: " + trace));
                assertEquals(received.getSpanId(), apply.getParentSpanId(), "apply is not a child of the consumer span");
                assertEquals(uuid, apply.getAttributes().get(io.opentelemetry.api.common.AttributeKey.stringKey("ironflow.node.uuid")));
                SpanData published = trace.stream().filter(s -> s.getSpanId().equals(parts[2])).findFirst()
                        .orElseThrow(() -> new AssertionError("the result's producer span was not exported: " + trace));
                assertEquals(apply.getSpanId(), published.getParentSpanId(), "the result's publication is not a child of apply");
            });
        }
    }

    /**
     * The Kafka connector traces records because the SDK is on (this profile turns it on): its default comes from
     * schemas' KafkaTracingFollowsOpenTelemetry, which the running conductor loaded; with the SDK off (the
     * service's default) the same interceptor turns the records' tracing off.
     */
    @Test
    void theConnectorTracesRecordsBecauseTheSdkIsOn() {
        var tracing = ConfigProvider.getConfig().getConfigValue("mp.messaging.connector.smallrye-kafka.tracing-enabled");
        assertEquals("true", tracing.getValue());
        assertEquals("KafkaTracingFollowsOpenTelemetry", tracing.getSourceName());
    }
}
