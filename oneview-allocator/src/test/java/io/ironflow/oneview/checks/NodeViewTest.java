package io.ironflow.oneview.checks;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ironflow.deploy.testing.IronflowTestInfrastructure;
import io.ironflow.deploy.testing.KafkaTestClient;
import io.ironflow.deploy.testing.OneViewSimulatorProcess;
import io.ironflow.events.AllocationAction;
import io.ironflow.events.AllocationResult;
import io.ironflow.events.NodeSnapshot;
import io.ironflow.schemas.Topic;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import org.apache.kafka.common.utils.Utils;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The checks' view of the nodes on real Kafka: a record on ironflow.node-state that is not a snapshot (bytes that do
 * not decode, a decodable record of another type) neither stops the view nor makes it forget the node of its key;
 * a tombstone does remove it.
 */
@QuarkusTest
@QuarkusTestResource(IronflowTestInfrastructure.class)
@QuarkusTestResource(OneViewSimulatorProcess.class)
class NodeViewTest {

    private static final Duration WAIT = Duration.ofSeconds(60);
    private static KafkaTestClient kafka;

    @Inject
    @io.smallrye.common.annotation.Identifier("node-state-rebalance")
    NodeView view;

    @BeforeAll
    static void kafka() {
        kafka = KafkaTestClient.ofTestConfig();
    }

    @AfterAll
    static void close() {
        kafka.close();
    }

    @Test
    void onlyASnapshotOrATombstoneChangesTheView() {
        String kept = UUID.randomUUID().toString();
        publish(kept);
        awaitInView(kept);

        String topic = Topic.NODE_STATE.topicName();
        int partition = kafka.sendRaw(topic, kept, "not avro".getBytes(StandardCharsets.UTF_8)).partition();
        kafka.sendRaw(topic, kept, kafka.wrongType(AllocationResult.newBuilder()
                .setRequestId(UUID.randomUUID().toString()).setNodeUuid(kept).setAction(AllocationAction.APPLY)
                .setSuccess(true).setCompletedAt(Instant.now()).build()));
        // A node on the same partition: once its snapshot is in the view, the two records before it were read.
        String next = onPartition(partition);
        publish(next);
        awaitInView(next);
        assertTrue(inView(kept), "a record that is not a snapshot does not make the view forget its node");

        kafka.sendRaw(topic, kept, null);
        Awaitility.await("the tombstone removes the node").atMost(WAIT).until(() -> !inView(kept));
    }

    private static void publish(String node) {
        kafka.send(Topic.NODE_STATE.topicName(), node, NodeSnapshot.newBuilder()
                .setUuid(node).setRevision(1).setDriver("oneview").setProvisionState("active")
                .setDriverInfo("{\"server_hardware_uri\": \"/rest/server-hardware/view-test\"}")
                .setPowerState("power on").setCreatedAt(Instant.now()).build());
    }

    /** A node uuid the producers' default partitioner puts on {@code partition} of ironflow.node-state. */
    private static String onPartition(int partition) {
        while (true) {
            String uuid = UUID.randomUUID().toString();
            if (Utils.toPositive(Utils.murmur2(uuid.getBytes(StandardCharsets.UTF_8))) % Topic.NODE_STATE.partitions() == partition) {
                return uuid;
            }
        }
    }

    private void awaitInView(String node) {
        Awaitility.await().atMost(WAIT).until(() -> inView(node));
    }

    private boolean inView(String node) {
        return view.nodes().stream().anyMatch(n -> n.uuid().equals(node));
    }
}
