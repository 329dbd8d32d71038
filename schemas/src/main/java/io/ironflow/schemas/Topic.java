package io.ironflow.schemas;

import java.util.List;
import java.util.Map;

/**
 * Every Kafka topic Ironflow uses, with the partition count it is created with.
 * Node-keyed topics share one partition count so a node's intents, results and state
 * land on the same partition number everywhere; changing it remaps keys, so it is fixed up front.
 */
public enum Topic {
    NODE_INTENTS("ironflow.node-intents", Topic.NODE_PARTITIONS, false),
    INTENT_RESULTS("ironflow.intent-results", Topic.NODE_PARTITIONS, false),
    NODE_STATE("ironflow.node-state", Topic.NODE_PARTITIONS, true),
    NODE_EVENTS("ironflow.node-events", Topic.NODE_PARTITIONS, false),
    ALLOCATION_REQUESTS("ironflow.allocation-requests", Topic.NODE_PARTITIONS, false),
    ALLOCATION_RESULTS("ironflow.allocation-results", Topic.NODE_PARTITIONS, false),
    TEARDOWN_EVENTS("ironflow.teardown-events", Topic.NODE_PARTITIONS, false),
    NODE_INTENTS_DLQ("ironflow.node-intents.dlq", 2, false),
    ALLOCATION_REQUESTS_DLQ("ironflow.allocation-requests.dlq", 2, false),
    ALLOCATION_RESULTS_DLQ("ironflow.allocation-results.dlq", 2, false);

    public static final int NODE_PARTITIONS = 6;

    private final String topicName;
    private final int partitions;
    private final boolean compacted;

    Topic(String topicName, int partitions, boolean compacted) {
        this.topicName = topicName;
        this.partitions = partitions;
        this.compacted = compacted;
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

    /** Topic-level configs to create the topic with. */
    public Map<String, String> configs() {
        return compacted ? Map.of("cleanup.policy", "compact") : Map.of();
    }

    public static List<Topic> all() {
        return List.of(values());
    }
}
