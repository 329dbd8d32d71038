package io.ironflow.schemas;

import io.ironflow.events.AllocationRequest;
import io.ironflow.events.AllocationResult;
import io.ironflow.events.IntentResult;
import io.ironflow.events.NodeEvent;
import io.ironflow.events.NodeIntent;
import io.ironflow.events.NodeSnapshot;
import io.ironflow.events.TeardownStepEvent;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.avro.Schema;

/**
 * Every Kafka topic Ironflow uses, with the partition count it is created with.
 * Node-keyed topics share one partition count so a node's intents, results and state
 * land on the same partition number everywhere; changing it remaps keys, so it is fixed up front.
 */
public enum Topic {
    NODE_INTENTS("ironflow.node-intents", Topic.NODE_PARTITIONS, false, NodeIntent.getClassSchema()),
    INTENT_RESULTS("ironflow.intent-results", Topic.NODE_PARTITIONS, false, IntentResult.getClassSchema()),
    NODE_STATE("ironflow.node-state", Topic.NODE_PARTITIONS, true, NodeSnapshot.getClassSchema()),
    NODE_EVENTS("ironflow.node-events", Topic.NODE_PARTITIONS, false, NodeEvent.getClassSchema()),
    ALLOCATION_REQUESTS("ironflow.allocation-requests", Topic.NODE_PARTITIONS, false, AllocationRequest.getClassSchema()),
    ALLOCATION_RESULTS("ironflow.allocation-results", Topic.NODE_PARTITIONS, false, AllocationResult.getClassSchema()),
    TEARDOWN_EVENTS("ironflow.teardown-events", Topic.NODE_PARTITIONS, false, TeardownStepEvent.getClassSchema()),
    // Dead letters keep the source record's raw bytes, whatever they are.
    NODE_INTENTS_DLQ("ironflow.node-intents.dlq", 2, false, null),
    ALLOCATION_REQUESTS_DLQ("ironflow.allocation-requests.dlq", 2, false, null),
    ALLOCATION_RESULTS_DLQ("ironflow.allocation-results.dlq", 2, false, null);

    public static final int NODE_PARTITIONS = 6;

    private final String topicName;
    private final int partitions;
    private final boolean compacted;
    private final Schema valueSchema;

    Topic(String topicName, int partitions, boolean compacted, Schema valueSchema) {
        this.topicName = topicName;
        this.partitions = partitions;
        this.compacted = compacted;
        this.valueSchema = valueSchema;
    }

    public String topicName() {
        return topicName;
    }

    public int partitions() {
        return partitions;
    }

    public boolean compacted() {
        return compacted;
    }

    /** The Avro schema of the topic's values, registered as {@code <topic>-value}; empty for dead letters. */
    public Optional<Schema> valueSchema() {
        return Optional.ofNullable(valueSchema);
    }

    /**
     * How long ironflow.node-events keeps a transition: 90 days, chosen rather than the broker's 7-day default.
     * Node history (GET /v1/nodes/{id}/history) is projected from it into the conductor's node_history table, which
     * keeps every entry; the topic's retention is how far back that table (or any other reader) can be rebuilt.
     */
    public static final long NODE_EVENTS_RETENTION_MS = 90L * 24 * 60 * 60 * 1000;

    /** Topic-level configs to create the topic with. */
    public Map<String, String> configs() {
        if (compacted) {
            return Map.of("cleanup.policy", "compact");
        }
        return this == NODE_EVENTS ? Map.of("retention.ms", Long.toString(NODE_EVENTS_RETENTION_MS)) : Map.of();
    }

    public static List<Topic> all() {
        return List.of(values());
    }
}
