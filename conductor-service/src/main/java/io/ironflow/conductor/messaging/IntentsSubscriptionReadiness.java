package io.ironflow.conductor.messaging;

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
 * A conductor is ready once it has joined the conductors' consumer group and been given its share of
 * ironflow.node-intents (possibly none, when there are more conductors than partitions). Until then intents
 * would wait for the group to form, and the first requests of a fresh stack would time out.
 */
@ApplicationScoped
@Identifier("node-intents-rebalance")
@Readiness
public class IntentsSubscriptionReadiness implements KafkaConsumerRebalanceListener, HealthCheck {

    private volatile boolean joined;

    @Override
    public void onPartitionsAssigned(Consumer<?, ?> consumer, Collection<TopicPartition> partitions) {
        joined = true;
    }

    @Override
    public HealthCheckResponse call() {
        return HealthCheckResponse.named("node intents subscription").status(joined).build();
    }
}
