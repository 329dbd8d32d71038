package io.ironflow.conductor.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ironflow.conductor.domain.ProvisionEvent;
import io.ironflow.conductor.domain.ProvisionState;
import io.ironflow.conductor.domain.ProvisionStateMachine;
import io.ironflow.conductor.domain.Rejection;
import io.ironflow.conductor.persistence.NodeEntity;
import java.time.Instant;
import java.util.EnumSet;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The node aggregate's rules, on a node held in memory: no database, no Kafka. */
class NodeTest {

    private static Node node(ProvisionState state) {
        NodeEntity entity = new NodeEntity();
        entity.uuid = UUID.randomUUID();
        entity.provisionState = state.wire();
        entity.revision = 1;
        entity.createdAt = Instant.parse("2026-01-01T00:00:00Z");
        return new Node(entity);
    }

    @Test
    void everyEdgeOfTheTableFiresAndIsRecorded() {
        for (ProvisionStateMachine.Transition edge : ProvisionStateMachine.table()) {
            Node node = node(edge.from());
            assertEquals(edge.to(), node.fire(edge.event()));
            assertEquals(edge.to().wire(), node.state().provisionState);
            assertEquals(node.state().provisionUpdatedAt, node.transitions().get(0).at());
            NodeTransition recorded = node.transitions().get(0);
            assertEquals(List.of(edge.from().wire(), edge.event().wire(), edge.to().wire()),
                    List.of(recorded.from(), recorded.event(), recorded.to()));
            assertNull(recorded.detail());
        }
    }

    @Test
    void anEventTheTableDoesNotAllowIsABugAndChangesNothing() {
        Node node = node(ProvisionState.ACTIVE);
        assertThrows(IllegalStateException.class, () -> node.fire(ProvisionEvent.PROVIDE));
        assertEquals("active", node.state().provisionState);
        assertTrue(node.transitions().isEmpty());
    }

    @Test
    void aStableStateHasNoTargetAndAFailedStateAimsWhereIronicDoes() {
        Node deploying = node(ProvisionState.AVAILABLE);
        deploying.fire(ProvisionEvent.DEPLOY, ProvisionState.ACTIVE);
        assertEquals("active", deploying.state().targetProvisionState);
        deploying.fire(ProvisionEvent.DONE);
        assertNull(deploying.state().targetProvisionState);

        Node cleaning = node(ProvisionState.CLEANING);
        cleaning.state().reservation = "c1";
        cleaning.state().targetProvisionState = "available";
        cleaning.fail("a step failed");
        assertEquals("clean failed", cleaning.state().provisionState);
        assertEquals("available", cleaning.state().targetProvisionState, "automated cleaning: Ironic keeps available");
        assertEquals("a step failed", cleaning.state().lastError);
        assertNull(cleaning.holder(), "a failed operation releases the node");

        Node manual = node(ProvisionState.CLEAN_WAIT);
        manual.state().targetProvisionState = "manageable";
        manual.fail("timed out");
        assertEquals("manageable", manual.state().targetProvisionState, "manual cleaning: manageable, as Ironic sets it");

        Node unknown = node(ProvisionState.CLEANING);
        unknown.fail("a step failed");
        assertEquals("available", unknown.state().targetProvisionState, "the target Ironic's machine declares");
    }

    @Test
    void onlyOneHolderAtATime() {
        Node node = node(ProvisionState.MANAGEABLE);
        assertTrue(node.reserve("c1"));
        assertFalse(node.reserve("c2"));
        assertEquals("c1", node.holder());
        node.release();
        assertTrue(node.reserve("c2"));
    }

    @Test
    void theMaintenanceReasonIsKeptOnlyInMaintenance() {
        Node node = node(ProvisionState.ACTIVE);
        node.maintenance(true, "disk");
        assertTrue(node.state().maintenance);
        assertEquals("disk", node.state().maintenanceReason);
        node.maintenance(false, "ignored");
        assertFalse(node.state().maintenance);
        assertNull(node.state().maintenanceReason);
    }

    @Test
    void anAvailableNodeCannotBeRetiredButARetiredOneStaysSo() {
        Rejection refused = assertThrows(Rejection.class, () -> node(ProvisionState.AVAILABLE).checkRetiring(true));
        assertEquals(409, refused.code());
        node(ProvisionState.MANAGEABLE).checkRetiring(true);
        node(ProvisionState.AVAILABLE).checkRetiring(false);
        Node retired = node(ProvisionState.AVAILABLE);
        retired.state().retired = true;
        retired.checkRetiring(true);
        retired.retire("old");
        assertTrue(retired.state().retired);
        assertEquals("old", retired.state().retiredReason);
        retired.unretire();
        assertFalse(retired.state().retired);
        assertNull(retired.state().retiredReason);
        Rejection skipped = assertThrows(Rejection.class, () -> retired.retire("again"), "retire() keeps the rule itself");
        assertEquals(409, skipped.code());
        assertFalse(retired.state().retired);
        assertNull(retired.state().retiredReason);
    }

    @Test
    void deletionIsAllowedInIronicsStatesOrInMaintenance() {
        for (ProvisionState state : ProvisionState.values()) {
            Node node = node(state);
            if (EnumSet.of(ProvisionState.ENROLL, ProvisionState.MANAGEABLE, ProvisionState.AVAILABLE,
                    ProvisionState.ADOPT_FAILED).contains(state)) {
                node.destroy();
                NodeTransition last = node.transitions().get(0);
                assertEquals(List.of(state.wire(), "destroy"), List.of(last.from(), last.event()));
                assertNull(last.to());
            } else {
                Rejection refused = assertThrows(Rejection.class, node::destroy, state.wire());
                assertEquals(409, refused.code());
                assertTrue(node.transitions().isEmpty());
                node.enterMaintenance("broken");
                node.destroy();
            }
        }
    }

    @Test
    void powerChangesSettleOrFailWithoutMovingThePowerState() {
        Node node = node(ProvisionState.ACTIVE);
        node.powerIs("power on");
        node.powerRequested("power off");
        node.powerChangeFailed("OneView said no");
        assertEquals("power on", node.powerState());
        assertNull(node.state().targetPowerState);
        assertEquals("OneView said no", node.state().lastError);
        node.powerRequested("power off");
        node.powerChanged("power off");
        assertEquals("power off", node.powerState());
        assertNull(node.state().targetPowerState);
    }

    @Test
    void aPowerSyncThatGivesUpPutsTheNodeInMaintenanceAndSaysSo() {
        Node node = node(ProvisionState.ACTIVE);
        node.powerSyncFailed("power off", "max retries");
        assertEquals("power off", node.powerState());
        assertTrue(node.state().maintenance);
        assertEquals("max retries", node.state().maintenanceReason);
        assertEquals("max retries", node.state().lastError);
        NodeTransition noticed = node.transitions().get(0);
        assertEquals(List.of("active", "power sync failed", "active", "max retries"),
                List.of(noticed.from(), noticed.event(), noticed.to(), noticed.detail()));
    }

    @Test
    void aNodeNeverChangedSinceEnrollmentHasNoUpdatedAtAndLaterChangesBumpTheRevision() {
        Node enrolled = node(ProvisionState.ENROLL);
        enrolled.enrolled();
        enrolled.stamp("c1");
        assertNull(enrolled.state().updatedAt);
        assertEquals(1, enrolled.state().revision);
        assertEquals("c1", enrolled.state().conductor);

        Node changed = node(ProvisionState.ENROLL);
        changed.fire(ProvisionEvent.MANAGE);
        changed.stamp("c2");
        assertEquals(2, changed.state().revision);
        assertTrue(changed.state().updatedAt != null);
    }
}
