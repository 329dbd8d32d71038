package io.ironflow.api.intents;

import io.smallrye.common.annotation.Identifier;
import io.smallrye.reactive.messaging.kafka.KafkaConsumerRebalanceListener;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.common.TopicPartition;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/**
 * The API may only take writes once it is sure to see their results. Each API instance reads
 * ironflow.intent-results in its own group from the end; this pins that position as soon as partitions are
 * assigned (instead of at the first fetch) and only then reports ready. A partition assigned again (the group
 * rejoined: a broker restart, a poll that stalled) goes on from where this instance was, not from the end: the
 * group commits nothing, and skipping to the end would lose the answers that came meanwhile, each waiting request
 * then timing out into a 503 for a write that was applied.
 */
@ApplicationScoped
@Identifier("intent-results-rebalance")
@Readiness
public class IntentResultsReadiness implements KafkaConsumerRebalanceListener, HealthCheck {

    private volatile boolean assigned;
    private final Map<TopicPartition, Long> resumeAt = new ConcurrentHashMap<>();

    @Override
    public void onPartitionsAssigned(Consumer<?, ?> consumer, Collection<TopicPartition> partitions) {
        for (TopicPartition partition : partitions) {
            Long where = resumeAt.remove(partition);
            if (where != null) {
                consumer.seek(partition, where);
            } else {
                consumer.seekToEnd(List.of(partition));
            }
            consumer.position(partition);
        }
        assigned = !consumer.assignment().isEmpty();
    }

    @Override
    public void onPartitionsRevoked(Consumer<?, ?> consumer, Collection<TopicPartition> partitions) {
        for (TopicPartition partition : partitions) {
            try {
                resumeAt.put(partition, consumer.position(partition));
            } catch (RuntimeException e) {
                // no position to keep: assigned again, it starts from the end, as at start-up
            }
        }
    }

    @Override
    public HealthCheckResponse call() {
        return HealthCheckResponse.named("intent results subscription").status(assigned).build();
    }
}
