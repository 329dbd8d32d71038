package io.ironflow.oneview.checks;

import io.ironflow.events.NodeSnapshot;
import io.smallrye.common.annotation.Identifier;
import io.smallrye.reactive.messaging.kafka.DeserializationFailureHandler;
import io.smallrye.reactive.messaging.kafka.KafkaConsumerRebalanceListener;
import io.smallrye.reactive.messaging.kafka.KafkaRecord;
import io.smallrye.reactive.messaging.kafka.KafkaRecordBatch;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.common.TopicPartition;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.jboss.logging.Logger;

/**
 * The oneview nodes this allocator instance checks: the latest ironflow.node-state snapshot of every node on the
 * partitions the consumer group gave it. Every allocator instance is a member of one group, so each node is
 * checked by exactly one of them; on assignment a partition is read again from its beginning (the topic is
 * compacted: it holds every node's latest state), on revocation its nodes are forgotten. Tombstones remove.
 */
@ApplicationScoped
@Identifier("node-state-rebalance")
public class NodeView implements KafkaConsumerRebalanceListener {

    private static final Logger LOG = Logger.getLogger(NodeView.class);

    private record Entry(int partition, OneViewNode node) {
    }

    private final Map<String, Entry> nodes = new ConcurrentHashMap<>();

    /**
     * A poll's snapshots at a time (a batch channel): every node's every change passes here, and the connector's
     * per-record pipeline cost ten times the map update. Within a partition the records keep their order, so the
     * last snapshot of a node in the batch is the one kept. A record that is not a snapshot (bytes that do not
     * decode, or a decodable record of another type) says nothing about its key's node: it is logged and passed
     * over, so neither stops the view nor makes it forget a node. Only a tombstone does.
     */
    @Incoming("node-state")
    public CompletionStage<Void> consume(KafkaRecordBatch<String, NodeSnapshot> batch) {
        for (KafkaRecord<String, NodeSnapshot> record : batch) {
            String key = record.getKey();
            Object payload = record.getPayload(); // as Object: a record of another type is not cast to NodeSnapshot
            if (payload instanceof NodeSnapshot snapshot) {
                OneViewNode node = OneViewNode.of(snapshot);
                if (node == null) {
                    nodes.remove(key);
                } else {
                    nodes.put(key, new Entry(record.getPartition(), node));
                }
            } else if (payload != null || undecodable(record)) {
                LOG.warnf("a record of node %s on ironflow.node-state partition %d is not a NodeSnapshot; passed over",
                        key, record.getPartition());
            } else {
                nodes.remove(key); // a tombstone: the node was deleted
            }
        }
        return batch.ack();
    }

    /** A null payload is a tombstone unless the connector marked it as bytes that did not decode. */
    private static boolean undecodable(KafkaRecord<?, ?> record) {
        return record.getHeaders().lastHeader(DeserializationFailureHandler.DESERIALIZATION_FAILURE_REASON) != null;
    }

    @Override
    public void onPartitionsAssigned(Consumer<?, ?> consumer, Collection<TopicPartition> partitions) {
        consumer.seekToBeginning(partitions);
    }

    @Override
    public void onPartitionsRevoked(Consumer<?, ?> consumer, Collection<TopicPartition> partitions) {
        List<Integer> gone = partitions.stream().map(TopicPartition::partition).toList();
        nodes.values().removeIf(entry -> gone.contains(entry.partition()));
    }

    /** The oneview nodes this instance owns now. */
    public List<OneViewNode> nodes() {
        return nodes.values().stream().map(Entry::node).toList();
    }
}
