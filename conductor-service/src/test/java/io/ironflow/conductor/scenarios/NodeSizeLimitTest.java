package io.ironflow.conductor.scenarios;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ironflow.conductor.testing.ConductorScenario;
import io.ironflow.conductor.work.NodeChange;
import io.ironflow.deploy.testing.IronflowTestInfrastructure;
import io.ironflow.events.CreatePort;
import io.ironflow.events.IntentResult;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * A node cannot be grown past what Kafka takes: each request is within the API's body limit, but many of them
 * could make the node's snapshot larger than a record may be, and the outbox would have to dead-letter its
 * node-state and the answer. The intent that would cross {@link NodeChange#MAX_NODE_BYTES} is refused with 400
 * and changes nothing, by a PATCH (the plain client's path) or by a port (the session's, whose row is rolled
 * back); the node still takes a small change, and nothing is dead-lettered.
 */
@QuarkusTest
@QuarkusTestResource(IronflowTestInfrastructure.class)
class NodeSizeLimitTest extends ConductorScenario {

    /** Just under Ironic's request body limit (112 KiB), as a member allowed to edit extra may send. */
    private static final String LARGE = "x".repeat(100_000);

    @Test
    void aPatchThatWouldMakeTheNodeTooLargeIsRefusedAndChangesNothing() throws Exception {
        String node = conductor.create(Map.of());
        String deadLettersBefore = conductor.query("SELECT count(*) FROM outbox_dead_letters");
        IntentResult refused = null;
        int accepted = 0;
        while (refused == null) {
            IntentResult answer = conductor.patch(node, "[{\"op\": \"add\", \"path\": \"/extra/k" + accepted
                    + "\", \"value\": \"" + LARGE + "\"}]");
            if (answer.getCode() == 200) {
                accepted++;
                assertTrue(accepted * LARGE.length() <= NodeChange.MAX_NODE_BYTES, "accepted past the limit: " + accepted);
            } else {
                refused = answer;
            }
        }
        assertEquals(400, refused.getCode(), refused.getErrorMessage());
        assertTrue(refused.getErrorMessage().contains("nothing was changed"), refused.getErrorMessage());
        assertEquals(NodeChange.MAX_NODE_BYTES / LARGE.length(), accepted, "every patch under the limit was taken");
        assertTrue(refused.getNode().getExtra().length() < NodeChange.MAX_NODE_BYTES, "the answer carries the node as it was");
        assertEquals(String.valueOf(accepted), conductor.query(
                "SELECT count(*) FROM jsonb_object_keys((SELECT extra FROM nodes WHERE uuid = '" + node + "'))"));

        IntentResult small = conductor.patch(node, "[{\"op\": \"add\", \"path\": \"/extra/rack\", \"value\": \"r1\"}]");
        assertEquals(200, small.getCode(), small.getErrorMessage());
        IntentResult shrunk = conductor.patch(node, "[{\"op\": \"remove\", \"path\": \"/extra/k0\"}]");
        assertEquals(200, shrunk.getCode(), "a change that makes the node smaller is taken: " + shrunk.getErrorMessage());
        assertEquals(deadLettersBefore, conductor.query("SELECT count(*) FROM outbox_dead_letters"));
    }

    @Test
    void aPortThatWouldMakeTheNodeTooLargeIsRefusedAndItsRowRolledBack() throws Exception {
        String node = conductor.create(Map.of());
        IntentResult refused = null;
        int accepted = 0;
        while (refused == null) {
            IntentResult answer = conductor.send(node, CreatePort.newBuilder().setPortUuid(UUID.randomUUID().toString())
                    .setAddress(PortsTest.randomMac()).setExtra("{\"blob\": \"" + LARGE + "\"}").build());
            if (answer.getCode() == 201) {
                accepted++;
                assertTrue(accepted * LARGE.length() <= NodeChange.MAX_NODE_BYTES, "accepted past the limit: " + accepted);
            } else {
                refused = answer;
            }
        }
        assertEquals(400, refused.getCode(), refused.getErrorMessage());
        assertEquals(accepted, refused.getNode().getPorts().size(), "the answer carries the node as it was");
        assertEquals(String.valueOf(accepted), conductor.query("SELECT count(*) FROM ports WHERE node_uuid = '" + node + "'"),
                "the refused port's row is not kept");
        assertEquals(201, conductor.send(node, CreatePort.newBuilder().setPortUuid(UUID.randomUUID().toString())
                .setAddress(PortsTest.randomMac()).build()).getCode(), "a small port still fits");
    }
}
