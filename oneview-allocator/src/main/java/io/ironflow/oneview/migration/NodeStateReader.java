package io.ironflow.oneview.migration;

import io.apicurio.registry.serde.avro.AvroKafkaDeserializer;
import io.ironflow.events.NodeSnapshot;
import io.ironflow.oneview.checks.OneViewNode;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Every node's latest state, read once from the whole of ironflow.node-state (compacted) up to its current end:
 * what an admin command that looks at all oneview nodes, not only this instance's, needs.
 */
@ApplicationScoped
public class NodeStateReader {

    private static final Duration DEADLINE = Duration.ofSeconds(30);

    private final String bootstrapServers;
    private final String registryUrl;

    NodeStateReader(@ConfigProperty(name = "kafka.bootstrap.servers") String bootstrapServers,
            @ConfigProperty(name = "mp.messaging.connector.smallrye-kafka.apicurio.registry.url") String registryUrl) {
        this.bootstrapServers = bootstrapServers;
        this.registryUrl = registryUrl;
    }

    public List<OneViewNode> oneViewNodes() {
        Map<String, NodeSnapshot> latest = new LinkedHashMap<>();
        try (KafkaConsumer<String, NodeSnapshot> consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName(),
                ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, AvroKafkaDeserializer.class.getName(),
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false",
                "apicurio.registry.url", registryUrl,
                "apicurio.registry.use-specific-avro-reader", "true"))) {
            List<TopicPartition> partitions = consumer.partitionsFor("ironflow.node-state").stream()
                    .map(p -> new TopicPartition(p.topic(), p.partition())).toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> ends = consumer.endOffsets(partitions);
            Instant deadline = Instant.now().plus(DEADLINE);
            while (partitions.stream().anyMatch(p -> consumer.position(p) < ends.get(p))) {
                if (Instant.now().isAfter(deadline)) {
                    throw new IllegalStateException("ironflow.node-state could not be read to its end within " + DEADLINE.toSeconds() + " s");
                }
                consumer.poll(Duration.ofMillis(200)).forEach(r -> latest.put(r.key(), r.value()));
            }
        }
        return new ArrayList<>(latest.values().stream().filter(Objects::nonNull).map(OneViewNode::of)
                .filter(Objects::nonNull).toList());
    }
}
