package io.ironflow.api.intents;

import io.smallrye.common.annotation.Identifier;
import io.smallrye.reactive.messaging.kafka.KafkaConsumerRebalanceListener;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Collection;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.common.TopicPartition;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/**
 * The API may only take writes once it is sure to see their results. Each API instance reads
 * ironflow.intent-results in its own group from the end; this pins that position as soon as partitions are
 * assigned (instead of at the first fetch) and only then reports ready.
 */
@ApplicationScoped
@Identifier("intent-results-rebalance")
@Readiness
public class IntentResultsReadiness implements KafkaConsumerRebalanceListener, HealthCheck {

    private volatile boolean assigned;

    @Override
    public void onPartitionsAssigned(Consumer<?, ?> consumer, Collection<TopicPartition> partitions) {
        consumer.seekToEnd(partitions);
        partitions.forEach(consumer::position);
        assigned = !consumer.assignment().isEmpty();
    }

    @Override
    public HealthCheckResponse call() {
        return HealthCheckResponse.named("intent results subscription").status(assigned).build();
    }
}
