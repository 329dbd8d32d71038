package io.ironflow.conductor.scenarios;

import io.ironflow.conductor.testing.Conductor;
import io.ironflow.conductor.testing.LogCapture;
import io.ironflow.conductor.testing.Sql;
import static org.awaitility.Awaitility.await;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ironflow.deploy.testing.IronflowTestInfrastructure;
import io.ironflow.events.IntentResult;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.List;
import java.util.UUID;
import java.util.Optional;
import java.util.logging.Level;
import io.ironflow.conductor.intents.IntentProcessor;
import org.jboss.logmanager.ExtLogRecord;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.Test;

/**
 * Every intent ends, and one that cannot be applied holds up nothing: a processing step that never completes
 * (the node's row held locked by a transaction that does not end) is answered within its bounded retries;
 * a failure that would repeat (a row no conductor could have written) is answered 500 at once; in both cases
 * the node is unchanged, the next intents are applied and the conductor stays live.
 */
@QuarkusTest
@QuarkusTestResource(IronflowTestInfrastructure.class)
class NeverWedgeTest {

    /**
     * A conductor silent past the heartbeat timeout (on the database's clock, which stamps heartbeats) has its
     * nodes taken over: one it held mid-deploy fails, as Ironic fails work lost with its conductor, and its row
     * goes. A conductor that heartbeats keeps its nodes.
     */
    @Test
    void aSilentConductorsNodesAreTakenOverAndALiveOnesAreNot() throws Exception {
        try (Conductor conductor = Conductor.connect()) {
            String orphan = conductor.create(Map.of());
            String held = conductor.create(Map.of());
            conductor.execute("INSERT INTO conductors (hostname, started_at, heartbeat_at) VALUES"
                    + " ('gone-conductor', now() - interval '1 hour', now() - interval '1 hour'),"
                    + " ('live-conductor', now(), now() + interval '1 hour')");
            conductor.execute("UPDATE nodes SET reservation = 'gone-conductor', provision_state = 'deploying',"
                    + " target_provision_state = 'active', provision_updated_at = now() - interval '1 hour' WHERE uuid = '" + orphan + "'");
            conductor.execute("UPDATE nodes SET reservation = 'live-conductor', provision_state = 'deploying',"
                    + " target_provision_state = 'active', provision_updated_at = now() - interval '1 hour' WHERE uuid = '" + held + "'");
            try {
                await().atMost(Duration.ofSeconds(30)).until(() -> "deploy failed".equals(conductor.column(orphan, "provision_state")));
                assertEquals(null, conductor.column(orphan, "reservation"));
                assertTrue(conductor.column(orphan, "last_error").contains("gone-conductor went offline"),
                        conductor.column(orphan, "last_error"));
                assertEquals("0", conductor.query("SELECT count(*) FROM conductors WHERE hostname = 'gone-conductor'"));
                assertEquals("live-conductor", conductor.column(held, "reservation"), "a live conductor keeps its nodes");
                assertEquals("deploying", conductor.column(held, "provision_state"));
            } finally {
                conductor.execute("DELETE FROM conductors WHERE hostname = 'live-conductor'");
                conductor.execute("UPDATE nodes SET reservation = NULL, provision_state = 'deploy failed' WHERE uuid = '" + held + "'");
            }
        }
    }

    @Test
    void anIntentWhoseProcessingNeverCompletesIsAnsweredAndTheNextOnesApplied() throws Exception {
        Duration deadline = ConfigProvider.getConfig().getValue("ironflow.conductor.intent-deadline", Duration.class);
        Duration retryFor = ConfigProvider.getConfig().getValue("ironflow.conductor.intent-retry-for", Duration.class);
        try (Conductor conductor = Conductor.connect()) {
            String stuck = conductor.create(Map.of());
            String other = conductor.create(Map.of());
            IntentResult answer;
            Instant sent;
            try (var holder = Sql.connect()) {
                holder.setAutoCommit(false);
                holder.createStatement().execute("SELECT 1 FROM nodes WHERE uuid = '" + stuck + "' FOR UPDATE");
                sent = Instant.now();
                answer = conductor.provision(stuck, "manage");
                assertEquals(202, conductor.provision(other, "manage").getCode(), "another node is not held up");
                holder.rollback();
            }
            Duration took = Duration.between(sent, Instant.now());
            assertFalse(answer.getAccepted());
            assertEquals(503, answer.getCode(), answer.getErrorMessage());
            assertTrue(answer.getErrorMessage().contains("nothing was changed"), answer.getErrorMessage());
            assertTrue(took.compareTo(retryFor.plus(deadline.multipliedBy(3))) < 0, "answered within its bounded attempts: " + took);
            assertEquals("enroll", conductor.column(stuck, "provision_state"));
            assertEquals("1", conductor.column(stuck, "revision"));

            conductor.drive(stuck, "manage", "manageable"); // the same node takes intents again
            given().get("/q/health/live").then().statusCode(200).body("status", equalTo("UP"));
        }
    }

    /**
     * A periodic duty that fails at every tick (here the call-back sweep, on a wait-state row whose step_due_at is
     * no number) says so once, not each second with a stack trace, keeps running, and says when it works again.
     */
    @Test
    void aDutyThatFailsAtEveryTickIsToldOnceAndKeepsRunning() throws Exception {
        try (Conductor conductor = Conductor.connect(); LogCapture logged = LogCapture.of("")) {
            String bad = UUID.randomUUID().toString();
            conductor.execute("INSERT INTO nodes (uuid, driver, provision_state, revision, created_at, driver_internal_info)"
                    + " VALUES ('" + bad + "', 'fake-hardware', 'clean wait', 1, now(), '{\"step_due_at\": \"soon\"}')");
            try {
                await("the sweep's failure told").atMost(Duration.ofSeconds(30))
                        .until(() -> logged.containing(Level.WARNING, "sweepCallBacks failed").size(), equalTo(1));
                // several more ticks (1 s apart in tests) fail, quietly
                await("no more warnings").during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(5))
                        .until(() -> logged.containing(Level.WARNING, "sweepCallBacks failed").size(), equalTo(1));
            } finally {
                conductor.execute("DELETE FROM nodes WHERE uuid = '" + bad + "'");
            }
            ExtLogRecord healed = await("the sweep working again").atMost(Duration.ofSeconds(30))
                    .until(() -> logged.containing(Level.INFO, "sweepCallBacks works again").stream().findFirst(), Optional::isPresent)
                    .orElseThrow();
            assertTrue(healed.getFormattedMessage().matches(".*after ([3-9]|\\d{2,}) failed runs"), healed.getFormattedMessage());
            assertEquals(List.of(), logged.containing(Level.SEVERE, "sweepCallBacks"), "the scheduler logged no error of it");
        }
    }

    @Test
    void aFailureThatWouldRepeatIsAnswered500AndChangesNothing() throws Exception {
        try (Conductor conductor = Conductor.connect(); LogCapture logged = LogCapture.of(IntentProcessor.class.getName())) {
            String broken = UUID.randomUUID().toString();
            conductor.execute("INSERT INTO nodes (uuid, driver, provision_state, revision, created_at)"
                    + " VALUES ('" + broken + "', 'fake-hardware', 'no such state', 1, now())");
            IntentResult answer = conductor.provision(broken, "manage");
            assertFalse(answer.getAccepted());
            assertEquals(500, answer.getCode(), answer.getErrorMessage());
            assertTrue(answer.getErrorMessage().contains("changed nothing"), answer.getErrorMessage());
            assertEquals("1", conductor.column(broken, "revision"));
            ExtLogRecord failure = logged.records().stream().filter(r -> r.getLevel() == org.jboss.logmanager.Level.ERROR)
                    .findFirst().orElseThrow(() -> new AssertionError("the 500 was not logged"));
            assertEquals(broken, failure.getMdc("node"), "the log line names its node");
            assertEquals(answer.getIntentId(), failure.getMdc("intent"), "the log line names its intent");

            String healthy = conductor.create(Map.of());
            conductor.drive(healthy, "manage", "manageable");
            assertEquals("0", conductor.query("SELECT count(*) FROM nodes WHERE reservation IS NOT NULL AND uuid IN ('"
                    + broken + "', '" + healthy + "')"), "no reservation outlives its work");
            given().get("/q/health/live").then().statusCode(200).body("status", equalTo("UP"));
        }
    }
}
