package io.ironflow.conductor.scenarios;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.ironflow.conductor.testing.Conductor;
import io.ironflow.conductor.testing.Sql;
import io.ironflow.deploy.testing.IronflowTestInfrastructure;
import io.ironflow.events.CreateNode;
import io.ironflow.events.DeleteNode;
import io.ironflow.events.IntentResult;
import io.ironflow.events.NodeIntent;
import io.ironflow.events.ProvisionAction;
import io.ironflow.events.ValidateNode;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * Many nodes' whole lives at once, ending as operators end them: undeploy, then DELETE. Each step's intents for
 * every node go out together, so the conductor decides them side by side on its node lanes. Every intent must
 * be answered (a lost continuation once left DELETE transactions open for ever and wedged the consumer), and
 * after the DELETEs no row, reservation or open transaction is left behind.
 */
@QuarkusTest
@QuarkusTestResource(IronflowTestInfrastructure.class)
class ConcurrentLifecyclesTest {

    private static final int NODES = 50;

    @Test
    void fiftyLifecyclesEndingInDeleteAreAllAnswered() throws Exception {
        try (Conductor conductor = Conductor.connect()) {
            List<String> nodes = IntStream.range(0, NODES).mapToObj(i -> UUID.randomUUID().toString()).toList();
            step(conductor, nodes, uuid -> CreateNode.newBuilder().setDriver("fake-hardware").build(), 201);
            for (String[] verb : new String[][] {{"manage", "manageable"}, {"provide", "available"},
                    {"active", "active"}, {"deleted", "available"}}) {
                step(conductor, nodes, uuid -> ProvisionAction.newBuilder().setTarget(verb[0]).build(), 202);
                for (String uuid : nodes) {
                    conductor.awaitState(uuid, verb[1]);
                }
            }
            step(conductor, nodes, uuid -> new DeleteNode(), 204);
            for (String uuid : nodes) {
                assertNull(conductor.column(uuid, "uuid"), "node " + uuid + " is gone");
            }
            // The outbox relay holds its transaction while the broker acknowledges a batch: open for a moment, not left.
            await("no transaction is left open").atMost(Duration.ofSeconds(10)).until(() -> conductor.query(
                    "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
                            + " AND state LIKE 'idle in transaction%'"), "0"::equals);
        }
    }

    /**
     * A change committed while an intent waits for the node's row lock is not written over: the intent works on
     * the node as it is once it holds the lock (its access check once loaded the node unlocked first, and the
     * command then saved that stale copy over an allocation result that had just moved the node on).
     */
    @Test
    void anIntentWaitingForTheRowWorksOnTheNodeAsCommittedBeforeIt() throws Exception {
        try (Conductor conductor = Conductor.connect();
                var other = Sql.connect()) {
            String uuid = conductor.create(Map.of());
            other.setAutoCommit(false);
            other.createStatement().execute("UPDATE nodes SET extra = '{\"written\": \"meanwhile\"}' WHERE uuid = '" + uuid + "'");
            CompletableFuture<IntentResult> patch = CompletableFuture.supplyAsync(
                    () -> conductor.patch(uuid, "[{\"op\": \"add\", \"path\": \"/description\", \"value\": \"patched\"}]"));
            await().atMost(Conductor.WAIT).until(() -> Integer.parseInt(conductor.query("SELECT count(*) FROM pg_stat_activity"
                    + " WHERE datname = current_database() AND wait_event_type = 'Lock'")) > 0);
            other.commit();
            assertEquals(200, patch.get(Conductor.WAIT.toSeconds(), TimeUnit.SECONDS).getCode());
            assertEquals("patched", conductor.column(uuid, "description"));
            assertEquals("meanwhile", conductor.column(uuid, "extra ->> 'written'"), "the change committed meanwhile is kept");
        }
    }

    /**
     * A validation is a read: it is answered while another transaction holds the node's row lock (it once took
     * the lock through the access check and waited behind every writer, past its deadline), from the node as
     * committed, and the writer's change is not lost.
     */
    @Test
    void aValidationIsAnsweredWhileAWriterHoldsTheNode() throws Exception {
        try (Conductor conductor = Conductor.connect();
                var other = Sql.connect()) {
            String uuid = conductor.create(Map.of());
            other.setAutoCommit(false);
            other.createStatement().execute("UPDATE nodes SET extra = '{\"written\": \"meanwhile\"}' WHERE uuid = '" + uuid + "'");
            IntentResult validation = conductor.send(uuid, new ValidateNode());
            assertEquals(200, validation.getCode(), validation.getErrorMessage());
            assertEquals("{}", validation.getNode().getExtra(), "the answer shows the node as committed");
            other.commit();
            assertEquals("meanwhile", conductor.column(uuid, "extra ->> 'written'"));
        }
    }

    private static void step(Conductor conductor, List<String> nodes, java.util.function.Function<String, Object> command,
            int expected) {
        List<NodeIntent> intents = nodes.stream().map(uuid -> Conductor.intent(uuid, command.apply(uuid))).toList();
        Map<String, IntentResult> results = conductor.sendAll(intents);
        for (NodeIntent intent : intents) {
            IntentResult result = results.get(intent.getIntentId());
            assertEquals(expected, result == null ? -1 : result.getCode(), "intent " + intent.getIntentId() + " on node "
                    + intent.getNodeUuid() + (result == null ? " was never answered" : ": " + result.getErrorMessage()));
        }
    }
}
