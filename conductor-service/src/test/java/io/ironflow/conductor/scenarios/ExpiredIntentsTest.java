package io.ironflow.conductor.scenarios;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ironflow.conductor.testing.Conductor;
import io.ironflow.conductor.testing.Sql;
import io.ironflow.deploy.testing.IronflowTestInfrastructure;
import io.ironflow.events.CreateNode;
import io.ironflow.events.IntentResult;
import io.ironflow.events.NodeIntent;
import io.ironflow.events.ProvisionAction;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * An intent whose sender stopped waiting ({@code notAfter} passed: the API has answered its client 503, and the
 * client may send it again) is not started: not when a conductor first takes it, not on a retry after a failed
 * attempt. It is answered 503, expired, recorded as answered, and changes nothing; an intent with time left, or
 * with no limit (Ironflow's own services), is applied as before.
 */
@QuarkusTest
@QuarkusTestResource(IronflowTestInfrastructure.class)
class ExpiredIntentsTest {

    @Test
    void anIntentPastItsNotAfterIsAnswered503AndChangesNothing() throws Exception {
        try (Conductor conductor = Conductor.connect()) {
            String uuid = conductor.create(Map.of());
            NodeIntent late = Conductor.intent(uuid, ProvisionAction.newBuilder().setTarget("manage").build());
            late.setNotAfter(Instant.now().minusSeconds(1));

            IntentResult answer = conductor.sendAll(List.of(late)).get(late.getIntentId());
            assertFalse(answer.getAccepted());
            assertEquals(503, answer.getCode(), answer.getErrorMessage());
            assertTrue(answer.getErrorMessage().contains("expired") && answer.getErrorMessage().contains("nothing was changed"),
                    answer.getErrorMessage());
            assertEquals("enroll", conductor.column(uuid, "provision_state"));
            assertEquals("1", conductor.column(uuid, "revision"));
            assertEquals("503", conductor.query("SELECT code FROM processed_intents WHERE intent_id = '" + late.getIntentId() + "'"));

            IntentResult again = conductor.sendAll(List.of(late)).get(late.getIntentId());
            assertEquals(503, again.getCode(), "a redelivery is answered as the first delivery was");

            NodeIntent inTime = Conductor.intent(uuid, ProvisionAction.newBuilder().setTarget("manage").build());
            inTime.setNotAfter(Instant.now().plusSeconds(60));
            assertEquals(202, conductor.sendAll(List.of(inTime)).get(inTime.getIntentId()).getCode());
            conductor.awaitState(uuid, "manageable");
        }
    }

    @Test
    void anExpiredCreationCreatesNoNode() throws Exception {
        try (Conductor conductor = Conductor.connect()) {
            String uuid = UUID.randomUUID().toString();
            NodeIntent late = Conductor.intent(uuid, CreateNode.newBuilder().setDriver("fake-hardware").setName("expired-" + uuid).build());
            late.setNotAfter(Instant.now().minusMillis(1));
            assertEquals(503, conductor.sendAll(List.of(late)).get(late.getIntentId()).getCode());
            assertEquals("0", conductor.query("SELECT count(*) FROM nodes WHERE uuid = '" + uuid + "' OR name = 'expired-" + uuid + "'"));
        }
    }

    /**
     * The attempt starts in time and waits for its node's row, which a transaction holds until notAfter has
     * passed; it gets the lock within its deadline, and then does not apply the intent: the API has answered 503 by
     * now. Without the check once the row is held, the intent would be applied.
     */
    @Test
    void anIntentWhoseLockComesAfterItsNotAfterIsNotApplied() throws Exception {
        try (Conductor conductor = Conductor.connect()) {
            String uuid = conductor.create(Map.of());
            NodeIntent intent = Conductor.intent(uuid, ProvisionAction.newBuilder().setTarget("manage").build());
            Instant notAfter = Instant.now().plusMillis(800);
            intent.setNotAfter(notAfter);
            try (var holder = Sql.connect()) {
                holder.setAutoCommit(false);
                holder.createStatement().execute("SELECT 1 FROM nodes WHERE uuid = '" + uuid + "' FOR UPDATE");
                conductor.publish(io.ironflow.schemas.Topic.NODE_INTENTS.topicName(), uuid, intent);
                org.awaitility.Awaitility.await("the attempt waits for the row").atMost(Conductor.WAIT)
                        .pollInterval(java.time.Duration.ofMillis(20)).until(() -> Integer.parseInt(conductor.query(
                                "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'")) > 0);
                org.awaitility.Awaitility.await("notAfter passes").atMost(Conductor.WAIT)
                        .pollInterval(java.time.Duration.ofMillis(20)).until(() -> Instant.now().isAfter(notAfter));
                holder.rollback(); // within the attempt's deadline (3 s in tests)
            }
            IntentResult answer = conductor.resultOf(intent.getIntentId());
            assertEquals(503, answer.getCode(), answer.getErrorMessage());
            assertTrue(answer.getErrorMessage().contains("expired"), answer.getErrorMessage());
            assertEquals("enroll", conductor.column(uuid, "provision_state"));
            assertEquals("1", conductor.column(uuid, "revision"));
        }
    }

    /**
     * The first attempt starts in time but meets its node's row locked (a wedged transaction) and runs out its
     * deadline; the retry comes after notAfter and is not made. Without the check on every attempt the intent would
     * be retried for intent-retry-for and then answered with the generic 503, or applied once the lock went.
     */
    @Test
    void anIntentThatExpiresWhileItsFirstAttemptWaitsIsNotRetried() throws Exception {
        try (Conductor conductor = Conductor.connect()) {
            String uuid = conductor.create(Map.of());
            NodeIntent intent = Conductor.intent(uuid, ProvisionAction.newBuilder().setTarget("manage").build());
            intent.setNotAfter(Instant.now().plusSeconds(1));
            IntentResult answer;
            try (var holder = Sql.connect()) {
                holder.setAutoCommit(false);
                holder.createStatement().execute("SELECT 1 FROM nodes WHERE uuid = '" + uuid + "' FOR UPDATE");
                answer = conductor.sendAll(List.of(intent)).get(intent.getIntentId());
                holder.rollback();
            }
            assertEquals(503, answer.getCode(), answer.getErrorMessage());
            assertTrue(answer.getErrorMessage().contains("expired"), answer.getErrorMessage());
            assertEquals("enroll", conductor.column(uuid, "provision_state"));
            assertEquals("1", conductor.column(uuid, "revision"));
        }
    }
}
