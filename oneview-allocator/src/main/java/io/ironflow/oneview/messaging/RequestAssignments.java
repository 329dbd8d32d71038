package io.ironflow.oneview.messaging;

import io.smallrye.common.annotation.Identifier;
import io.smallrye.reactive.messaging.kafka.KafkaConsumerRebalanceListener;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Collection;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.common.TopicPartition;

/**
 * Which partitions of ironflow.allocation-requests this instance holds, each with the generation of its
 * assignment. A request waiting in a node's lane when its partition is revoked (a rolling update, another
 * allocator joining) goes, uncommitted, to whoever gets the partition; run here as well, it would reach OneView
 * twice and out of order with the new holder's (a stale REMOVE deleting the profile of the deploy after it). A
 * request runs only while the assignment it arrived under still stands: a revoked partition, even one assigned
 * back, is a new generation whose own redelivered records are the ones to run.
 */
@ApplicationScoped
@Identifier("allocation-requests-rebalance")
public class RequestAssignments implements KafkaConsumerRebalanceListener {

    /** What a record arrived under when its partition was not held (never held, or revoked meanwhile). */
    public static final long NONE = -1;

    private final Map<TopicPartition, Long> held = new ConcurrentHashMap<>();
    private final AtomicLong generations = new AtomicLong();

    @Override
    public void onPartitionsAssigned(Consumer<?, ?> consumer, Collection<TopicPartition> partitions) {
        partitions.forEach(partition -> held.put(partition, generations.incrementAndGet()));
    }

    @Override
    public void onPartitionsRevoked(Consumer<?, ?> consumer, Collection<TopicPartition> partitions) {
        partitions.forEach(held::remove);
    }

    @Override
    public void onPartitionsLost(Consumer<?, ?> consumer, Collection<TopicPartition> partitions) {
        partitions.forEach(held::remove);
    }

    /** The generation of this instance's assignment of {@code partition} now; {@link #NONE} when it holds none. */
    public long generation(TopicPartition partition) {
        return held.getOrDefault(partition, NONE);
    }

    /** Whether the assignment of {@code partition} a record arrived under ({@code generation}) still stands. */
    public boolean stillHeld(TopicPartition partition, long generation) {
        return generation != NONE && held.getOrDefault(partition, NONE) == generation;
    }
}
