package io.ironflow.deploy.stack;

import io.apicurio.registry.serde.avro.AvroKafkaDeserializer;
import java.io.PrintStream;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.RecordDeserializationException;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * {@code ironflow watch [TOPIC]} (see {@link IronflowCli.Watch}): prints a topic from its beginning and then as it grows, one line per record
 * ({@code key<TAB>value as JSON}), decoding Avro through the registry. On the compacted ironflow.node-state
 * (the default) that is every node's latest state, then each change as it happens. A record that does not decode
 * is printed as such, with its offset, and passed over. Ctrl-C ends it. Against a
 * {@code --secure} stack it logs in as the stack's read-only principal (the dashboard's), so it reads what a
 * dashboard may: node-state, node-events and teardown-events; the broker refuses it any other topic.
 */
public final class WatchTopic {

    private WatchTopic() {
    }

    /**
     * Prints {@code topic} until the process is stopped.
     *
     * @param security client settings of a secure stack (SASL, TLS, the registry's user); empty for an open one
     */
    static void watch(String topic, Map<String, Object> security) {
        watch(topic, security, System.getProperty("ironflow.kafka", "127.0.0.1:9092"),
                System.getProperty("ironflow.registry", "http://127.0.0.1:18081/apis/registry/v2"), System.out);
    }

    /** Prints {@code topic} of the broker at {@code bootstrap} to {@code out} until this thread is interrupted. */
    static void watch(String topic, Map<String, Object> security, String bootstrap, String registry, PrintStream out) {
        Map<String, Object> config = new HashMap<>(security);
        config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        config.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        config.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, AvroKafkaDeserializer.class.getName());
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        config.put("apicurio.registry.url", registry);
        try (KafkaConsumer<String, Object> consumer = new KafkaConsumer<>(config)) {
            // assign() rather than a group: a watcher reads everything and leaves no offsets behind.
            List<TopicPartition> partitions = consumer.partitionsFor(topic, Duration.ofSeconds(30)).stream()
                    .map(p -> new TopicPartition(topic, p.partition())).toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            while (true) { // poll throws Kafka's InterruptException once the thread is interrupted
                try {
                    consumer.poll(Duration.ofMillis(500)).forEach(record ->
                            out.println(record.key() + "\t" + (record.value() == null ? "(deleted)" : record.value())));
                } catch (RecordDeserializationException poison) { // the records before it came with the last poll
                    out.println("(" + poison.topicPartition() + " offset " + poison.offset() + " cannot be decoded: "
                            + poison.getCause() + ")");
                    consumer.seek(poison.topicPartition(), poison.offset() + 1);
                }
                out.flush();
            }
        }
    }
}
