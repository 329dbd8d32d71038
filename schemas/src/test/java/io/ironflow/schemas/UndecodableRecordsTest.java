package io.ironflow.schemas;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.apicurio.registry.serde.avro.AvroKafkaDeserializer;
import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.kafka.DeserializationFailureHandler;
import java.net.ConnectException;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.avro.AvroRuntimeException;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.Test;

/**
 * A record the registry's absence keeps from decoding waits for the registry (one outage at most
 * registry-outage-wait in all, then dead-lettered as before); a record that does not decode is handed on as null
 * with its reasons at once.
 */
class UndecodableRecordsTest {

    private static final byte[] FRAMED = {0, 0, 0, 0, 0, 0, 0, 0, 7, 2, 3}; // magic byte, an id no cache holds, a body

    @Test
    void aRecordWaitsForARegistryThatComesBack() {
        UndecodableRecords handler = new UndecodableRecords(Duration.ofSeconds(30));
        AtomicInteger attempts = new AtomicInteger();
        Object decoded = handler.decorateDeserialization(Uni.createFrom().item(() -> {
            if (attempts.incrementAndGet() < 3) {
                throw new RuntimeException("lookup failed", new ConnectException("Connection refused"));
            }
            return "decoded";
        }), "t", false, "d", FRAMED, new RecordHeaders());
        assertEquals("decoded", decoded);
        assertEquals(3, attempts.get());
    }

    /**
     * Records whose schema is cached keep decoding during an outage; they must not reset its budget, or every
     * record that needs the registry would get a fresh wait and the poll would be held far past it.
     */
    @Test
    void recordsThatDecodeWithoutTheRegistryDoNotResetAnOutagesBudget() {
        UndecodableRecords handler = new UndecodableRecords(Duration.ofMillis(600));
        Uni<Object> registryAway = Uni.createFrom().failure(new RuntimeException("lookup", new ConnectException("refused")));
        long started = System.nanoTime();
        assertNull(handler.decorateDeserialization(registryAway, "t", false, "d", FRAMED, new RecordHeaders()));
        assertEquals("cached", handler.decorateDeserialization(Uni.createFrom().item("cached"), "t", false, "d", FRAMED,
                new RecordHeaders()));
        long second = System.nanoTime();
        assertNull(handler.decorateDeserialization(registryAway, "t", false, "d", FRAMED, new RecordHeaders()));
        assertTrue(Duration.ofNanos(System.nanoTime() - second).compareTo(Duration.ofMillis(300)) < 0,
                "the outage's budget was spent, not reset by the cached record");
        assertTrue(Duration.ofNanos(second - started).compareTo(Duration.ofMillis(550)) >= 0, "the first record waited");
    }

    @Test
    void aRecordThatDoesNotDecodeIsHandedOnAtOnceWithItsReasons() {
        UndecodableRecords handler = new UndecodableRecords(Duration.ofSeconds(30));
        Headers headers = new RecordHeaders();
        long started = System.nanoTime();
        assertNull(handler.decorateDeserialization(Uni.createFrom().failure(new AvroRuntimeException("Malformed data")),
                "t", false, "d", FRAMED, headers));
        assertTrue(Duration.ofNanos(System.nanoTime() - started).compareTo(Duration.ofSeconds(1)) < 0, "not waited for");
        assertEquals("Malformed data", new String(headers.lastHeader(DeserializationFailureHandler.DESERIALIZATION_FAILURE_REASON).value()));
    }

    /** The registry's real client, against a port nobody listens on: one outage holds the records 1 s in all. */
    @Test
    void anOutageHoldsTheRecordsThatNeedTheRegistryForItsWaitInAllThenTheyAreDeadLettered() throws Exception {
        int closed;
        try (ServerSocket socket = new ServerSocket(0)) {
            closed = socket.getLocalPort();
        }
        UndecodableRecords handler = new UndecodableRecords(Duration.ofSeconds(1));
        try (AvroKafkaDeserializer<Object> deserializer = new AvroKafkaDeserializer<>()) {
            deserializer.configure(Map.of("apicurio.registry.url", "http://127.0.0.1:" + closed + "/apis/registry/v2",
                    "apicurio.registry.use-specific-avro-reader", "true"), false);
            long started = System.nanoTime();
            Headers first = new RecordHeaders();
            assertNull(decode(handler, deserializer, first));
            Duration firstTook = Duration.ofNanos(System.nanoTime() - started);
            assertTrue(firstTook.compareTo(Duration.ofMillis(900)) >= 0 && firstTook.compareTo(Duration.ofSeconds(10)) < 0,
                    "the first record waited for the registry: " + firstTook);
            assertTrue(new String(first.lastHeader(DeserializationFailureHandler.DESERIALIZATION_FAILURE_REASON).value())
                    .contains("Connection refused"), "dead-lettered with the reason");

            started = System.nanoTime();
            assertNull(decode(handler, deserializer, new RecordHeaders()));
            Duration nextTook = Duration.ofNanos(System.nanoTime() - started);
            assertTrue(nextTook.compareTo(Duration.ofMillis(900)) < 0, "the outage's wait is spent: " + nextTook);
        }
    }

    private static Object decode(UndecodableRecords handler, AvroKafkaDeserializer<Object> deserializer, Headers headers) {
        return handler.decorateDeserialization(Uni.createFrom().item(() -> deserializer.deserialize("t", headers, FRAMED)),
                "t", false, deserializer.getClass().getName(), FRAMED, headers);
    }
}
