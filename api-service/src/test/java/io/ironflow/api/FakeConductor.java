package io.ironflow.api;

import io.apicurio.registry.serde.avro.AvroKafkaDeserializer;
import io.ironflow.deploy.testing.KafkaTestClient;
import io.ironflow.events.IntentResult;
import io.ironflow.events.NodeIntent;
import io.ironflow.events.NodeSnapshot;
import io.ironflow.schemas.Topic;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * Stands in for the conductor on the real topics: reads ironflow.node-intents from its end and answers each
 * intent on ironflow.intent-results as the test told it to for that node (nodes it was told nothing about get
 * no answer). It keeps every intent it read, so tests can also tell that nothing was published.
 */
final class FakeConductor implements AutoCloseable {

    private final KafkaTestClient kafka;
    private final List<NodeIntent> read = new CopyOnWriteArrayList<>();
    private final Map<String, Function<NodeIntent, IntentResult>> answers = new ConcurrentHashMap<>();
    private final Thread loop;
    private volatile boolean running = true;
    private volatile Function<NodeIntent, IntentResult> everyOtherNode;

    FakeConductor(String bootstrapServers, String registryUrl) {
        kafka = new KafkaTestClient(bootstrapServers, registryUrl);
        KafkaConsumer<String, NodeIntent> consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName(),
                ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, AvroKafkaDeserializer.class.getName(),
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false",
                "apicurio.registry.url", registryUrl,
                "apicurio.registry.use-specific-avro-reader", "true"));
        String topic = Topic.NODE_INTENTS.topicName();
        List<TopicPartition> partitions = consumer.partitionsFor(topic).stream()
                .map(p -> new TopicPartition(topic, p.partition())).toList();
        consumer.assign(partitions);
        consumer.seekToEnd(partitions);
        partitions.forEach(consumer::position); // pin the end now, so no intent sent after this is missed
        // A producer's first send fetches metadata and looks the schema up, which on a loaded machine can outlast the
        // API's answer deadline: pay for it now, with a result for no intent (the API drops results nobody awaits).
        kafka.send(Topic.INTENT_RESULTS.topicName(), "warm-up", IntentResult.newBuilder()
                .setIntentId("warm-up-" + java.util.UUID.randomUUID()).setNodeUuid("warm-up").setAccepted(false).setCode(0)
                .setConductor("fake-conductor").setCompletedAt(Instant.now()).build());
        loop = new Thread(() -> run(consumer), "fake-conductor");
        loop.setDaemon(true);
        loop.start();
    }

    /** How to answer intents for this node from now on. */
    void answer(String nodeUuid, Function<NodeIntent, IntentResult> how) {
        answers.put(nodeUuid, how);
    }

    /** How to answer intents for nodes it was told nothing about (by default: not at all). */
    void answerEveryOtherNode(Function<NodeIntent, IntentResult> how) {
        everyOtherNode = how;
    }

    /** Every intent read so far for this node. */
    List<NodeIntent> intentsFor(String nodeUuid) {
        return read.stream().filter(intent -> intent.getNodeUuid().equals(nodeUuid)).toList();
    }

    int intentsRead() {
        return read.size();
    }

    static IntentResult accepted(NodeIntent intent, int code, NodeSnapshot node) {
        return result(intent, true, code, null, node);
    }

    static IntentResult refused(NodeIntent intent, int code, String message) {
        return result(intent, false, code, message, null);
    }

    private static IntentResult result(NodeIntent intent, boolean accepted, int code, String message, NodeSnapshot node) {
        return IntentResult.newBuilder()
                .setIntentId(intent.getIntentId())
                .setNodeUuid(intent.getNodeUuid())
                .setAccepted(accepted)
                .setCode(code)
                .setErrorMessage(message)
                .setNode(node)
                .setConductor("fake-conductor")
                .setCompletedAt(Instant.now())
                .build();
    }

    private void run(KafkaConsumer<String, NodeIntent> consumer) {
        try (consumer) {
            while (running) {
                consumer.poll(Duration.ofMillis(100)).forEach(record -> {
                    NodeIntent intent = record.value();
                    read.add(intent); // before answering: once the API has its answer, the test sees the intent
                    Function<NodeIntent, IntentResult> how = answers.getOrDefault(intent.getNodeUuid(), everyOtherNode);
                    IntentResult result = how == null ? null : how.apply(intent);
                    if (result != null) { // null: the test's function answers some other way, or not at all
                        kafka.send(Topic.INTENT_RESULTS.topicName(), record.key(), result);
                    }
                });
            }
        }
    }

    @Override
    public void close() throws InterruptedException {
        running = false;
        loop.join(10_000);
        kafka.close();
    }
}
