package io.ironflow.teardown;

import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.ProducerInterceptor;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;

/**
 * A Kafka producer interceptor on the orchestrator's teardown-events channel (TeardownPeers configures it) that
 * holds the send of a record under a key a test named with {@link #hold}: it tells the test the send began, then
 * waits until the test lets it go. So a test can act while the outbox relay is between reading a batch and
 * deleting it, without sleeping. Kafka instantiates the interceptor itself, possibly in another class loader than
 * the test's; the holds are kept in the system properties, whose values (JDK futures) both loaders share.
 */
public class HeldSends implements ProducerInterceptor<Object, Object> {

    private static final String PREFIX = "ironflow.test.held-send.";

    /** The send of the next record keyed {@code key} completes {@code began}, then waits for {@code release}. */
    public static void hold(String key, CompletableFuture<Void> began, CompletableFuture<Void> release) {
        System.getProperties().put(PREFIX + key, new CompletableFuture<?>[] {began, release});
    }

    @Override
    public ProducerRecord<Object, Object> onSend(ProducerRecord<Object, Object> record) {
        Object held = record.key() == null ? null : System.getProperties().remove(PREFIX + record.key());
        if (held instanceof CompletableFuture<?>[] futures) {
            ((CompletableFuture<Void>) futures[0]).complete(null);
            try {
                futures[1].get(30, TimeUnit.SECONDS);
            } catch (Exception e) {
                throw new IllegalStateException("the held send was never released", e);
            }
        }
        return record;
    }

    @Override
    public void onAcknowledgement(RecordMetadata metadata, Exception exception) {
    }

    @Override
    public void close() {
    }

    @Override
    public void configure(Map<String, ?> configs) {
    }
}
