package io.ironflow.conductor.scenarios;

import io.ironflow.conductor.testing.Conductor;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ironflow.conductor.domain.ProvisionState;
import io.ironflow.conductor.domain.ProvisionStateMachine;
import io.ironflow.conductor.domain.ProvisionVerb;
import io.ironflow.deploy.testing.IronflowTestInfrastructure;
import io.ironflow.events.IntentResult;
import io.ironflow.events.NodeIntent;
import io.ironflow.events.ProvisionAction;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The table through the real path: a node in each of the 24 states receives each verb as an intent on
 * Kafka, and the conductor answers 202 exactly where the transition table (itself checked against Ironic's)
 * has an edge, 400 InvalidStateRequested elsewhere, and 409 NodeLocked for a reserved node, in every state.
 * A refused verb changes nothing.
 */
@QuarkusTest
@QuarkusTestResource(IronflowTestInfrastructure.class)
class EveryStateAndVerbTest {

    private static final String CLEAN_STEPS = "[{\"interface\": \"deploy\", \"step\": \"erase_devices_metadata\"}]";

    private record Case(ProvisionState state, ProvisionVerb verb, boolean reserved, String node, NodeIntent intent) {
    }

    @Test
    void everyStateAgainstEveryVerb() throws SQLException {
        try (Conductor conductor = Conductor.connect()) {
            List<Case> cases = new ArrayList<>();
            for (ProvisionState state : ProvisionState.values()) {
                for (ProvisionVerb verb : ProvisionVerb.values()) {
                    cases.add(place(conductor, state, verb, false));
                }
                cases.add(place(conductor, state, ProvisionVerb.MANAGE, true));
            }
            Map<String, IntentResult> results = conductor.sendAll(cases.stream().map(Case::intent).toList());

            int allowed = 0;
            for (Case c : cases) {
                IntentResult result = results.get(c.intent().getIntentId());
                String label = c.verb().wire() + " from " + c.state().wire() + (c.reserved() ? " (reserved)" : "");
                boolean edge = ProvisionStateMachine.next(c.state(), c.verb().event()).isPresent();
                if (c.reserved()) {
                    assertEquals(409, result.getCode(), label + ": " + result.getErrorMessage());
                    assertTrue(result.getErrorMessage().contains("is locked by host ghost-conductor"), label);
                } else if (edge) {
                    allowed++;
                    assertEquals(202, result.getCode(), label + ": " + result.getErrorMessage());
                } else {
                    assertEquals(400, result.getCode(), label + ": " + result.getErrorMessage());
                    assertEquals("The requested action \"" + c.verb().wire() + "\" can not be performed on node \""
                            + c.node() + "\" while it is in state \"" + c.state().wire() + "\".", result.getErrorMessage());
                }
                if (c.reserved() || !edge) {
                    assertEquals(c.state().wire(), conductor.column(c.node(), "provision_state"), label + " changed nothing");
                    assertEquals("1", conductor.column(c.node(), "revision"), label + " changed nothing");
                }
            }
            assertTrue(allowed >= 30, "the table's verb edges were exercised: " + allowed);
        }
    }

    /** A node row in {@code state}, as a conductor would have left it; reserved by a conductor that holds it. */
    private static Case place(Conductor conductor, ProvisionState state, ProvisionVerb verb, boolean reserved)
            throws SQLException {
        String uuid = UUID.randomUUID().toString();
        // Entered "in an hour": the test's 6 s wait timeout must not move a parked node while the table runs.
        conductor.execute("INSERT INTO nodes (uuid, driver, provision_state, power_state, reservation, revision,"
                + " created_at, provision_updated_at) VALUES ('" + uuid + "', 'fake-hardware', '" + state.wire()
                + "', 'power off', " + (reserved ? "'ghost-conductor'" : "NULL") + ", 1, now(), now() + interval '1 hour')");
        ProvisionAction.Builder action = ProvisionAction.newBuilder().setTarget(verb.wire());
        if (verb == ProvisionVerb.CLEAN) {
            action.setCleanSteps(CLEAN_STEPS);
        } else if (verb == ProvisionVerb.RESCUE) {
            action.setRescuePassword("s3cret");
        }
        return new Case(state, verb, reserved, uuid, Conductor.intent(uuid, action.build()));
    }
}
