package io.ironflow.conductor.work;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ironflow.conductor.domain.hardware.OneViewHardware;
import io.ironflow.conductor.persistence.NodeEntity;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Ironic's power sync rules for oneview nodes, on a node in memory (the scenario test runs them over Kafka). */
class OneViewPowerSyncTest {

    private static final String HARDWARE = "/rest/server-hardware/h1";
    private final OneViewPowerSync forcing = new OneViewPowerSync(true, 3, Duration.ofSeconds(120));
    private final OneViewPowerSync following = new OneViewPowerSync(false, 3, Duration.ofSeconds(120));

    private static NodeEntity node(String provisionState, String powerState) {
        NodeEntity node = new NodeEntity();
        node.uuid = UUID.randomUUID();
        node.driver = "oneview";
        node.driverInfo = new HashMap<>(Map.of(OneViewHardware.SERVER_HARDWARE_URI, HARDWARE));
        node.provisionState = provisionState;
        node.powerState = powerState;
        return node;
    }

    private static NodeChange change(NodeEntity node) {
        return new NodeChange(node, null, "c1");
    }

    @Test
    void forcedTheRecordedStateIsPushedToTheHardwareAndTheMismatchCounted() {
        NodeEntity node = node("active", "power on");
        forcing.reconcile(change(node), "power off");
        assertEquals("power on", node.powerState, "the record stands");
        assertEquals("power on", node.targetPowerState, "a power request to OneView is pending");
        assertTrue(node.driverInternalInfo.get(OneViewPower.PENDING) instanceof Map<?, ?> p && "power on".equals(p.get("target")));
        assertEquals(1, node.driverInternalInfo.get(OneViewPowerSync.MISMATCHES));
    }

    @Test
    void notForcedTheRecordFollowsTheHardware() {
        NodeEntity node = node("available", "power on");
        following.reconcile(change(node), "power off");
        assertEquals("power off", node.powerState);
        assertNull(node.targetPowerState);
        assertFalse(node.driverInternalInfo.containsKey(OneViewPower.PENDING));
    }

    @Test
    void hardwareHeldByAOneViewUserIsNeverForced() {
        NodeEntity node = node("available", "power off");
        OneViewHardware.observe(node.driverInternalInfo, HARDWARE, "/rest/server-profiles/theirs", "SAP", Instant.now());
        forcing.reconcile(change(node), "power on");
        assertEquals("power on", node.powerState);
        assertNull(node.targetPowerState);
    }

    @Test
    void aNodeWithoutAPowerStateTakesTheHardwares() {
        NodeEntity node = node("manageable", null);
        forcing.reconcile(change(node), "power off");
        assertEquals("power off", node.powerState);
        assertNull(node.targetPowerState);
    }

    @Test
    void reservedMaintenanceTransitionalPendingAndExcludedNodesAreLeftAlone() {
        NodeEntity reserved = node("active", "power on");
        reserved.reservation = "c2";
        NodeEntity maintenance = node("active", "power on");
        maintenance.maintenance = true;
        NodeEntity pending = node("active", "power on");
        pending.targetPowerState = "power off";
        NodeEntity[] nodes = {reserved, maintenance, pending, node("deploying", "power on"), node("clean wait", "power on"),
            node("enroll", "power on"), node("adopt failed", "power on")};
        for (NodeEntity node : nodes) {
            NodeChange change = change(node);
            forcing.reconcile(change, "power off");
            following.reconcile(change, "power off");
            assertEquals("power on", node.powerState, node.provisionState);
            assertFalse(change.changed(), node.provisionState);
        }
    }

    @Test
    void pastTheRetriesTheNodeTakesTheHardwaresStateAndGoesToMaintenance() {
        NodeEntity node = node("active", "power on");
        for (int attempt = 1; attempt <= 3; attempt++) {
            forcing.reconcile(change(node), "power off");
            assertEquals(attempt, node.driverInternalInfo.get(OneViewPowerSync.MISMATCHES));
            node.driverInternalInfo.remove(OneViewPower.PENDING); // OneView refused: the request ended, unanswered
            node.targetPowerState = null;
        }
        forcing.reconcile(change(node), "power off");
        assertEquals("power off", node.powerState);
        assertTrue(node.maintenance);
        assertTrue(node.maintenanceReason.startsWith("During sync_power_state, max retries exceeded for node " + node.uuid),
                node.maintenanceReason);
        assertEquals(node.maintenanceReason, node.lastError);
        assertNull(node.targetPowerState, "not forced again");
        assertFalse(node.driverInternalInfo.containsKey(OneViewPowerSync.MISMATCHES));
    }

    @Test
    void aMatchResetsTheCount() {
        NodeEntity node = node("active", "power on");
        forcing.reconcile(change(node), "power off");
        node.driverInternalInfo.remove(OneViewPower.PENDING);
        node.targetPowerState = null;
        forcing.reconcile(change(node), "power on");
        assertFalse(node.driverInternalInfo.containsKey(OneViewPowerSync.MISMATCHES));
    }
}
