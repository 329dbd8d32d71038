package io.ironflow.conductor.domain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ironflow.conductor.domain.ProvisionRequest.NodeFacts;
import io.ironflow.conductor.domain.ProvisionRequest.Start;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Every state against every verb: allowed exactly where the table has an edge, refused with Ironic's code. */
class ProvisionRequestTest {

    private static final String UUID = "1be26c0b-03f2-4d2e-ae87-c02d7f33c123";

    static Stream<Arguments> everyStateAndVerb() {
        List<Arguments> cases = new ArrayList<>();
        for (ProvisionState state : ProvisionState.values()) {
            for (ProvisionVerb verb : ProvisionVerb.values()) {
                cases.add(Arguments.of(state, verb));
            }
        }
        return cases.stream();
    }

    @ParameterizedTest(name = "{1} from {0}")
    @MethodSource("everyStateAndVerb")
    void allowedExactlyWhereTheTableHasAnEdge(ProvisionState state, ProvisionVerb verb) {
        var edge = ProvisionStateMachine.next(state, verb.event());
        NodeFacts idle = new NodeFacts(UUID, state, null, false, false);
        NodeFacts reserved = new NodeFacts(UUID, state, "conductor-1", false, false);
        if (edge.isPresent()) {
            Start start = decide(idle, verb);
            assertEquals(edge.get(), start.enter());
            Rejection locked = assertThrows(Rejection.class, () -> decide(reserved, verb));
            assertEquals(409, locked.code());
            assertTrue(locked.getMessage().contains("is locked by host conductor-1"), locked.getMessage());
        } else {
            Rejection invalid = assertThrows(Rejection.class, () -> decide(idle, verb));
            assertEquals(400, invalid.code());
            assertEquals("The requested action \"" + verb.wire() + "\" can not be performed on node \"" + UUID
                    + "\" while it is in state \"" + state.wire() + "\".", invalid.getMessage());
            assertEquals(409, assertThrows(Rejection.class, () -> decide(reserved, verb)).code(),
                    "a node being worked on answers NodeLocked, as Ironic does");
        }
    }

    @Test
    void unknownVerbIs400() {
        assertEquals(400, assertThrows(Rejection.class, () -> ProvisionRequest.decide(
                new NodeFacts(UUID, ProvisionState.MANAGEABLE, null, false, false), "explode", false, null)).code());
    }

    @Test
    void targetsAreTheStableStatesTheVerbsAimFor() {
        assertEquals(ProvisionState.MANAGEABLE, decide(facts(ProvisionState.ENROLL), ProvisionVerb.MANAGE).target());
        assertEquals(ProvisionState.AVAILABLE, decide(facts(ProvisionState.MANAGEABLE), ProvisionVerb.PROVIDE).target());
        assertEquals(ProvisionState.ACTIVE, decide(facts(ProvisionState.AVAILABLE), ProvisionVerb.ACTIVE).target());
        assertEquals(ProvisionState.AVAILABLE, decide(facts(ProvisionState.ACTIVE), ProvisionVerb.UNDEPLOY).target());
        assertNull(decide(facts(ProvisionState.AVAILABLE), ProvisionVerb.MANAGE).target(), "already stable");
        assertNull(decide(facts(ProvisionState.CLEAN_WAIT), ProvisionVerb.ABORT).target());
    }

    @Test
    void maintenanceRefusesDeployRebuildAndManualCleaning() {
        NodeFacts inMaintenance = new NodeFacts(UUID, ProvisionState.AVAILABLE, null, true, false);
        assertEquals(400, assertThrows(Rejection.class, () -> decide(inMaintenance, ProvisionVerb.ACTIVE)).code());
        assertEquals(ProvisionState.MANAGEABLE, decide(inMaintenance, ProvisionVerb.MANAGE).enter());
        NodeFacts activeInMaintenance = new NodeFacts(UUID, ProvisionState.ACTIVE, null, true, false);
        assertEquals(400, assertThrows(Rejection.class, () -> decide(activeInMaintenance, ProvisionVerb.REBUILD)).code());
        assertEquals(ProvisionState.DELETING, decide(activeInMaintenance, ProvisionVerb.DELETED).enter());
        NodeFacts manageableInMaintenance = new NodeFacts(UUID, ProvisionState.MANAGEABLE, null, true, false);
        Rejection clean = assertThrows(Rejection.class, () -> decide(manageableInMaintenance, ProvisionVerb.CLEAN));
        assertEquals(400, clean.code());
        assertEquals("The cleaning operation can't be performed on node " + UUID + " because it's in maintenance mode.",
                clean.getMessage());
        assertEquals(ProvisionState.CLEANING, decide(manageableInMaintenance, ProvisionVerb.PROVIDE).enter(),
                "automated cleaning is not refused");
    }

    @Test
    void provideOnARetiredNodeIs409() {
        NodeFacts retired = new NodeFacts(UUID, ProvisionState.MANAGEABLE, null, false, true);
        assertEquals(409, assertThrows(Rejection.class, () -> decide(retired, ProvisionVerb.PROVIDE)).code());
    }

    @Test
    void cleanStepsAndRescuePasswordBelongToTheirVerbs() {
        NodeFacts manageable = facts(ProvisionState.MANAGEABLE);
        assertEquals(400, assertThrows(Rejection.class,
                () -> ProvisionRequest.decide(manageable, "clean", false, null)).code());
        assertEquals(ProvisionState.CLEANING, ProvisionRequest.decide(manageable, "clean", true, null).enter());
        assertEquals(400, assertThrows(Rejection.class,
                () -> ProvisionRequest.decide(manageable, "provide", true, null)).code());
        NodeFacts active = facts(ProvisionState.ACTIVE);
        assertEquals(400, assertThrows(Rejection.class, () -> ProvisionRequest.decide(active, "rescue", false, "")).code());
        assertEquals(400, assertThrows(Rejection.class, () -> ProvisionRequest.decide(active, "rebuild", false, "pw")).code());
        assertEquals(ProvisionState.RESCUING, ProvisionRequest.decide(active, "rescue", false, "pw").enter());
    }

    private static NodeFacts facts(ProvisionState state) {
        return new NodeFacts(UUID, state, null, false, false);
    }

    /** The verb with the arguments it needs to be well formed. */
    private static Start decide(NodeFacts node, ProvisionVerb verb) {
        return ProvisionRequest.decide(node, verb.wire(), verb == ProvisionVerb.CLEAN,
                verb == ProvisionVerb.RESCUE ? "secret" : null);
    }
}
