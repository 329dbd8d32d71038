package io.ironflow.oneview.migration;

import io.apicurio.registry.serde.avro.AvroKafkaDeserializer;
import io.ironflow.events.NodeSnapshot;
import io.ironflow.oneview.checks.OneViewNode;
import io.smallrye.common.annotation.Identifier;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.RecordDeserializationException;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/**
 * Every node's latest state, read once from the whole of ironflow.node-state (compacted) up to its current end:
 * what an admin command that looks at all oneview nodes, not only this instance's, needs.
 */
@ApplicationScoped
public class NodeStateReader {

    private static final Logger LOG = Logger.getLogger(NodeStateReader.class);

    private static final Duration DEADLINE = Duration.ofSeconds(30);

    private final Map<String, Object> kafkaSettings;
    private final String registryUrl;

    /** {@code kafkaSettings}: every {@code kafka.*} setting (bootstrap servers, SASL, TLS, registry user), as Quarkus gathers them. */
    NodeStateReader(@Identifier("default-kafka-broker") Map<String, Object> kafkaSettings,
            @ConfigProperty(name = "mp.messaging.connector.smallrye-kafka.apicurio.registry.url") String registryUrl) {
        this.kafkaSettings = kafkaSettings;
        this.registryUrl = registryUrl;
    }

    public List<OneViewNode> oneViewNodes() {
        Map<String, NodeSnapshot> latest = new LinkedHashMap<>();
        Map<String, Object> config = new HashMap<>(kafkaSettings);
        config.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        config.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, AvroKafkaDeserializer.class.getName());
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        config.remove(ConsumerConfig.GROUP_ID_CONFIG); // assigned partitions, nothing committed
        config.put("apicurio.registry.url", registryUrl);
        config.put("apicurio.registry.use-specific-avro-reader", "true");
        try (KafkaConsumer<String, Object> consumer = new KafkaConsumer<>(config)) {
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
                poll(consumer, latest);
            }
        }
        return new ArrayList<>(latest.values().stream().filter(Objects::nonNull).map(OneViewNode::of)
                .filter(Objects::nonNull).toList());
    }

    /**
     * Keeps each node's newest snapshot or tombstone (null). A record that does not decode, or is of another type,
     * says nothing about its node and is passed over: failing on it would make the command fail for as long as the
     * compacted topic keeps it.
     */
    private static void poll(KafkaConsumer<String, Object> consumer, Map<String, NodeSnapshot> latest) {
        try {
            for (ConsumerRecord<String, Object> record : consumer.poll(Duration.ofMillis(200))) {
                if (record.value() == null || record.value() instanceof NodeSnapshot) {
                    latest.put(record.key(), (NodeSnapshot) record.value());
                } else {
                    LOG.warnf("ironflow.node-state-%d offset %d is a %s, not a NodeSnapshot; passed over",
                            record.partition(), record.offset(), record.value().getClass().getSimpleName());
                }
            }
        } catch (RecordDeserializationException poison) { // the records before it came with the last poll
            LOG.warnf("ironflow.node-state: %s offset %d cannot be decoded; passed over", poison.topicPartition(), poison.offset());
            consumer.seek(poison.topicPartition(), poison.offset() + 1);
        }
    }
}
