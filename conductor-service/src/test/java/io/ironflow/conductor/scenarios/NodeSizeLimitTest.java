package io.ironflow.conductor.scenarios;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ironflow.policy.IntentRules;
import io.ironflow.conductor.testing.Conductor;
import io.ironflow.conductor.testing.ConductorScenario;
import io.ironflow.conductor.work.NodeChange;
import io.ironflow.deploy.testing.IronflowTestInfrastructure;
import io.ironflow.events.CreatePort;
import io.ironflow.events.IntentResult;
import io.ironflow.events.NodeIntent;
import io.ironflow.events.UpdateNode;
import io.ironflow.policy.Principal;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.IntFunction;
import org.junit.jupiter.api.Test;

/**
 * A node cannot be grown past what Kafka takes: each request is within the API's body limit, but many of them
 * could make the node's snapshot larger than a record may be, and the outbox would have to dead-letter its
 * node-state and the answer. The intent that would cross {@link NodeChange#MAX_NODE_BYTES} is refused with 400
 * and changes nothing, by a PATCH (the plain client's path) or by a port (the session's, whose row is rolled
 * back); the node still takes a small change, and what Ironflow's own services record, and nothing is dead-lettered.
 * A node our services filled past the limit takes every change that does not make it larger, so an operator can
 * bring it back a step at a time.
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
        List<IntentResult> answers = untilRefused(200, i -> conductor.patch(node, "[{\"op\": \"add\", \"path\": \"/extra/k" + i
                + "\", \"value\": \"" + LARGE + "\"}]"));
        IntentResult refused = answers.get(answers.size() - 1);
        int accepted = answers.size() - 1;
        assertEquals(400, refused.getCode(), refused.getErrorMessage());
        assertTrue(refused.getErrorMessage().contains("nothing was changed"), refused.getErrorMessage());
        assertEquals(NodeChange.MAX_NODE_BYTES / LARGE.length(), accepted, "every patch under the limit was taken");
        assertNull(refused.getNode(), "a refusal carries no node (issue 58)");
        assertTrue(Integer.parseInt(conductor.query("SELECT length(extra::text) FROM nodes WHERE uuid = '" + node + "'"))
                < NodeChange.MAX_NODE_BYTES, "the node is as it was");
        assertEquals(String.valueOf(accepted), conductor.query(
                "SELECT count(*) FROM jsonb_object_keys((SELECT extra FROM nodes WHERE uuid = '" + node + "'))"));

        NodeIntent ours = Conductor.intent(node, UpdateNode.newBuilder().setPatch("[{\"op\": \"add\", \"path\": \"/extra/k"
                + accepted + "\", \"value\": \"" + LARGE + "\"}]").build());
        ours.setPrincipal(IntentRules.toAvro(Principal.service("oneview-allocator")));
        IntentResult recorded = conductor.sendAll(List.of(ours)).get(ours.getIntentId());
        assertEquals(200, recorded.getCode(), "what Ironflow's own services record is never refused: " + recorded.getErrorMessage());
        int ceiling = (NodeChange.MAX_RECORDED_NODE_BYTES - NodeChange.MAX_NODE_BYTES) / LARGE.length() + 2;
        IntentResult past = null;
        for (int i = 1; i <= ceiling && (past == null || past.getCode() == 200); i++) { // up to the hard ceiling
            NodeIntent more = Conductor.intent(node, UpdateNode.newBuilder().setPatch("[{\"op\": \"add\", \"path\": \"/extra/s"
                    + i + "\", \"value\": \"" + LARGE + "\"}]").build());
            more.setPrincipal(IntentRules.toAvro(Principal.service("oneview-allocator")));
            past = conductor.sendAll(List.of(more)).get(more.getIntentId());
        }
        assertEquals(400, past.getCode(), "not past what a Kafka record takes, even for our own services");
        assertTrue(Integer.parseInt(conductor.query("SELECT length(extra::text) FROM nodes WHERE uuid = '" + node + "'"))
                < NodeChange.MAX_RECORDED_NODE_BYTES);

        // Over the operators' limit now: what makes the node larger is refused, what does not is taken.
        IntentResult grows = conductor.patch(node, "[{\"op\": \"add\", \"path\": \"/extra/rack\", \"value\": \"r1\"}]");
        assertEquals(400, grows.getCode(), "over the limit, a change that makes the node larger is refused");
        assertTrue(grows.getErrorMessage().contains("does not make the node larger"), grows.getErrorMessage());
        IntentResult same = conductor.patch(node, "[{\"op\": \"replace\", \"path\": \"/extra/k0\", \"value\": \""
                + "y".repeat(LARGE.length()) + "\"}]");
        assertEquals(200, same.getCode(), "a change that leaves the node's size as it was is taken: " + same.getErrorMessage());
        IntentResult stepBack = conductor.patch(node, "[{\"op\": \"remove\", \"path\": \"/extra/s1\"}]");
        assertEquals(200, stepBack.getCode(), "a change that makes the node smaller is taken: " + stepBack.getErrorMessage());
        assertTrue(stepBack.getNode().getExtra().length() > NodeChange.MAX_NODE_BYTES, "though it leaves the node over the limit");
        String removals = conductor.query("SELECT string_agg('{\"op\": \"remove\", \"path\": \"/extra/' || k || '\"}', ',')"
                + " FROM jsonb_object_keys((SELECT extra FROM nodes WHERE uuid = '" + node + "')) k WHERE k LIKE 's%'");
        assertEquals(200, conductor.patch(node, "[" + removals + ", {\"op\": \"remove\", \"path\": \"/extra/k" + accepted
                + "\"}]").getCode());

        IntentResult small = conductor.patch(node, "[{\"op\": \"add\", \"path\": \"/extra/rack\", \"value\": \"r1\"}]");
        assertEquals(200, small.getCode(), small.getErrorMessage());
        IntentResult shrunk = conductor.patch(node, "[{\"op\": \"remove\", \"path\": \"/extra/k0\"}]");
        assertEquals(200, shrunk.getCode(), "a change that makes the node smaller is taken: " + shrunk.getErrorMessage());
        assertEquals(deadLettersBefore, conductor.query("SELECT count(*) FROM outbox_dead_letters"));
    }

    @Test
    void aPortThatWouldMakeTheNodeTooLargeIsRefusedAndItsRowRolledBack() throws Exception {
        String node = conductor.create(Map.of());
        List<IntentResult> answers = untilRefused(201, i -> conductor.send(node, CreatePort.newBuilder()
                .setPortUuid(UUID.randomUUID().toString()).setAddress(PortsTest.randomMac())
                .setExtra("{\"blob\": \"" + LARGE + "\"}").build()));
        IntentResult refused = answers.get(answers.size() - 1);
        int accepted = answers.size() - 1;
        assertEquals(400, refused.getCode(), refused.getErrorMessage());
        assertNull(refused.getNode(), "a refusal carries no node (issue 58)");
        assertEquals(String.valueOf(accepted), conductor.query("SELECT count(*) FROM ports WHERE node_uuid = '" + node + "'"),
                "the refused port's row is not kept");
        assertEquals(201, conductor.send(node, CreatePort.newBuilder().setPortUuid(UUID.randomUUID().toString())
                .setAddress(PortsTest.randomMac()).build()).getCode(), "a small port still fits");
    }

    /**
     * Sends {@code change(i)} for i = 0, 1, ... until one is not answered {@code ok}: the answers, the refusal last.
     * None is taken past the limit.
     */
    private static List<IntentResult> untilRefused(int ok, IntFunction<IntentResult> change) {
        List<IntentResult> answers = new ArrayList<>();
        IntentResult answer;
        do {
            answer = change.apply(answers.size());
            answers.add(answer);
            assertTrue(answers.size() * LARGE.length() <= NodeChange.MAX_NODE_BYTES + LARGE.length(),
                    "accepted past the limit: " + answers.size());
        } while (answer.getCode() == ok);
        return answers;
    }
}
