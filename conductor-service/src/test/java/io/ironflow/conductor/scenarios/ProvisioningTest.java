package io.ironflow.conductor.scenarios;

import io.ironflow.conductor.testing.ConductorScenario;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ironflow.conductor.domain.ProvisionEvent;
import io.ironflow.conductor.domain.ProvisionState;
import io.ironflow.conductor.domain.ProvisionStateMachine;
import io.ironflow.deploy.testing.IronflowTestInfrastructure;
import io.ironflow.events.IntentResult;
import io.ironflow.events.NodeEvent;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.ironflow.events.NodeIntent;
import io.ironflow.events.UpdateNode;
import io.ironflow.policy.IntentRules;
import io.ironflow.policy.Principal;
import io.ironflow.conductor.testing.Conductor;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Provision verbs end to end through Kafka and PostgreSQL: the lifecycle, manual cleaning, retirement, abort,
 * wait-state timeouts, locking. Test durations (application.properties, %test): wait timeout 6 s, checks 1 s.
 */
@QuarkusTest
@QuarkusTestResource(IronflowTestInfrastructure.class)
class ProvisioningTest extends ConductorScenario {

    @Test
    void everyVerbOfTheLifecycle() throws SQLException {
        String node = conductor.create(Map.of());
        conductor.drive(node, "manage", "manageable");
        conductor.drive(node, "inspect", "manageable");
        assertEquals("true", conductor.column(node, "driver_internal_info->'fake_hardware'->>'inspected'"));
        conductor.drive(node, "provide", "available");
        assertEquals("[\"erase_devices_metadata\", \"erase_devices\"]",
                conductor.column(node, "driver_internal_info->'fake_hardware'->'erase_history'"),
                "automated cleaning runs the priority > 0 steps, highest first");
        conductor.drive(node, "active", "active");
        conductor.drive(node, "rebuild", "active");
        assertEquals("400", String.valueOf(conductor.rescue(node, "").getCode()), "rescue needs a password");
        assertEquals(202, conductor.rescue(node, "s3cret").getCode());
        conductor.awaitState(node, "rescue");
        conductor.drive(node, "unrescue", "active");
        assertEquals(202, conductor.power(node, "power off").getCode());
        assertEquals("power off", conductor.column(node, "power_state"));
        assertEquals(202, conductor.power(node, "rebooting").getCode());
        assertEquals("power on", conductor.column(node, "power_state"));
        assertEquals(400, conductor.power(node, "explode").getCode());
        assertEquals(409, conductor.delete(node).getCode(), "an active node cannot be deleted");
        conductor.drive(node, "deleted", "available");
        assertNull(conductor.column(node, "target_provision_state"));
        assertNull(conductor.column(node, "reservation"));
        conductor.drive(node, "manage", "manageable");
        conductor.drive(node, "adopt", "active");
        assertEquals(202, conductor.maintenance(node, true, "broken fan").getCode());
        assertEquals("broken fan", conductor.column(node, "maintenance_reason"));
        assertEquals(400, conductor.provision(node, "rebuild").getCode(), "no deploy in maintenance");
        assertEquals(204, conductor.delete(node).getCode(), "maintenance allows deleting in any state");
        assertNull(conductor.column(node, "uuid"));

        List<NodeEvent> events = conductor.eventsThrough(node, "destroy");
        assertEquals("create", events.get(0).getEvent());
        NodeEvent deletion = events.get(events.size() - 1);
        assertEquals("destroy", deletion.getEvent(), "the last event is the deletion, which node history keeps");
        assertEquals("active", deletion.getFromState());
        assertNull(deletion.getToState());
        for (int i = 1; i < events.size() - 1; i++) {
            NodeEvent event = events.get(i);
            assertEquals(events.get(i - 1).getToState(), event.getFromState(), "each transition starts where the last ended");
            assertEquals(ProvisionState.fromWire(event.getToState()), ProvisionStateMachine.next(
                    ProvisionState.fromWire(event.getFromState()), ProvisionEvent.valueOf(event.getEvent().toUpperCase())).orElseThrow(),
                    "every transition is an edge of the table");
        }
    }

    /**
     * A deploy's config drive is kept in instance_info.configdrive (Ironic's _store_configdrive without an object
     * store), a rebuild's replaces it, and the tear-down clears instance_info and instance_uuid, as Ironic's does in
     * its finally. A config drive with another verb is not kept.
     */
    @Test
    void theConfigDriveIsKeptForTheDeployAndTheTearDownClearsTheInstance() throws SQLException {
        String node = manageable(Map.of());
        conductor.drive(node, "provide", "available");
        assertEquals(200, conductor.patch(node, "[{\"op\": \"add\", \"path\": \"/instance_info/image_source\", \"value\": \"http://i/img\"},"
                + " {\"op\": \"add\", \"path\": \"/instance_uuid\", \"value\": \"" + java.util.UUID.randomUUID() + "\"}]").getCode());
        assertEquals(202, conductor.send(node, io.ironflow.events.ProvisionAction.newBuilder().setTarget("active")
                .setConfigDrive("{\"meta_data\": {\"hostname\": \"n1\"}}").build()).getCode());
        conductor.awaitState(node, "active");
        assertEquals("{\"hostname\": \"n1\"}", conductor.column(node, "instance_info->'configdrive'->'meta_data'"));
        assertEquals("http://i/img", conductor.column(node, "instance_info->>'image_source'"));

        assertEquals(202, conductor.send(node, io.ironflow.events.ProvisionAction.newBuilder().setTarget("rebuild")
                .setConfigDrive("H4sIAAAA").build()).getCode());
        conductor.awaitState(node, "active");
        assertEquals("H4sIAAAA", conductor.column(node, "instance_info->>'configdrive'"));

        conductor.drive(node, "deleted", "available");
        assertEquals("{}", conductor.column(node, "instance_info::text"));
        assertNull(conductor.column(node, "instance_uuid"));

        assertEquals(202, conductor.send(node, io.ironflow.events.ProvisionAction.newBuilder().setTarget("manage")
                .setConfigDrive("H4sIAAAA").build()).getCode());
        conductor.awaitState(node, "manageable");
        assertEquals("{}", conductor.column(node, "instance_info::text"), "only a deploy keeps a config drive");
    }

    @Test
    void verificationFailureReturnsToEnroll() throws SQLException {
        String node = conductor.create(Map.of("fake_fail_verify", true));
        conductor.drive(node, "manage", "enroll");
        assertTrue(conductor.column(node, "last_error").contains("fake_fail_verify"), conductor.column(node, "last_error"));
        assertEquals(400, conductor.provision(node, "provide").getCode());
        assertEquals(400, conductor.provision(node, "explode").getCode());
    }

    @Test
    void manualCleaningRunsTheGivenStepsInOrder() throws SQLException {
        String node = manageable(Map.of());
        IntentResult accepted = conductor.clean(node, """
                [{"interface": "raid", "step": "delete_configuration"},
                 {"interface": "bios", "step": "apply_configuration", "args": {"settings": [{"name": "LogicalProc", "value": "Enabled"}]}},
                 {"interface": "deploy", "step": "erase_devices"}]""");
        assertEquals(202, accepted.getCode(), accepted.getErrorMessage());
        assertEquals("manageable", accepted.getNode().getProvisionState(),
                "steps that take no time run in the transaction that accepts the verb");
        assertNull(accepted.getNode().getTargetProvisionState());
        assertEquals("[\"raid.delete_configuration\", \"bios.apply_configuration\", \"deploy.erase_devices\"]",
                conductor.column(node, "driver_internal_info->'fake_hardware'->'step_history'"));
        assertNull(conductor.column(node, "last_error"));
    }

    @Test
    void badCleanStepsAreRefusedOrFailCleaningWithEveryProblemNamed() throws SQLException {
        String node = manageable(Map.of());
        String revision = conductor.column(node, "revision");
        for (String bad : List.of("[]", "[{\"interface\": \"kernel\", \"step\": \"x\"}]", "[{\"interface\": \"bios\", \"step\": \"\"}]",
                "[{\"interface\": \"bios\", \"step\": \"factory_reset\", \"priority\": 5}]", "[\"bios.factory_reset\"]")) {
            assertEquals(400, conductor.clean(node, bad).getCode(), bad);
        }
        assertEquals(400, conductor.provision(node, "clean").getCode(), "clean needs clean_steps");
        assertEquals(revision, conductor.column(node, "revision"), "a refused request changes nothing");
        assertEquals("manageable", conductor.column(node, "provision_state"));

        assertEquals(202, conductor.clean(node, """
                [{"interface": "bios", "step": "factory_reset"},
                 {"interface": "bios", "step": "overclock"},
                 {"interface": "management", "step": "update_firmware"},
                 {"interface": "deploy", "step": "erase_devices", "args": {"fast": true}}]""").getCode());
        conductor.awaitState(node, "clean failed");
        String error = conductor.column(node, "last_error");
        assertTrue(error.contains("bios.overclock") && error.contains("firmware_images") && error.contains("\"fast\""), error);
        assertNull(conductor.column(node, "driver_internal_info->'fake_hardware'"), "no step ran");
        assertEquals("manageable", conductor.column(node, "target_provision_state"));
        conductor.drive(node, "manage", "manageable");
    }

    @Test
    void retirement() throws SQLException {
        String active = manageable(Map.of());
        conductor.drive(active, "provide", "available");
        assertEquals(409, conductor.patch(active, "[{\"op\": \"replace\", \"path\": \"/retired\", \"value\": true}]").getCode(),
                "an available node must be managed before it can retire");
        conductor.drive(active, "active", "active");
        assertEquals(200, conductor.patch(active, """
                [{"op": "replace", "path": "/retired", "value": true}, {"op": "add", "path": "/retired_reason", "value": "EOL"}]""").getCode());
        conductor.drive(active, "deleted", "manageable");
        assertEquals(409, conductor.provision(active, "provide").getCode(), "seed 000: provide on a retired node is 409");
        assertEquals(400, conductor.patch(active, "[{\"op\": \"replace\", \"path\": \"/provision_state\", \"value\": \"available\"}]").getCode());
        assertEquals(200, conductor.patch(active, "[{\"op\": \"replace\", \"path\": \"/retired\", \"value\": false}]").getCode());
        assertNull(conductor.column(active, "retired_reason"), "unsetting retired clears the reason");

        String manageable = manageable(Map.of());
        assertEquals(400, conductor.patch(manageable, "[{\"op\": \"add\", \"path\": \"/retired_reason\", \"value\": \"x\"}]").getCode(),
                "a reason needs retired");
        assertEquals(200, conductor.patch(manageable, "[{\"op\": \"add\", \"path\": \"/retired_reason\", \"value\": \"\"}]").getCode(),
                "an empty reason is no reason (Ironic tests it for truth)");
        assertEquals(200, conductor.patch(active, """
                [{"op": "replace", "path": "/retired", "value": true}, {"op": "add", "path": "/retired_reason", "value": "EOL"}]""").getCode());
        assertEquals(200, conductor.patch(active, """
                [{"op": "replace", "path": "/retired", "value": false}, {"op": "replace", "path": "/retired_reason", "value": "x"}]""")
                .getCode(), "unretiring clears the reason, even one the same patch sets");
        assertNull(conductor.column(active, "retired_reason"));
        assertEquals(200, conductor.patch(manageable, "[{\"op\": \"replace\", \"path\": \"/retired\", \"value\": true}]").getCode());
        assertEquals(202, conductor.clean(manageable, "[{\"interface\": \"bios\", \"step\": \"factory_reset\"}]").getCode());
        conductor.awaitState(manageable, "manageable");

        // Retired while waiting in clean wait (seed 000 allows it in a transition): cleaning finishes in manageable.
        String waiting = manageable(Map.of("fake_step_seconds", Map.of("deploy.erase_devices_metadata", 3))); // two patches, well under the test wait-timeout (6 s)
        assertEquals(202, conductor.provision(waiting, "provide").getCode());
        conductor.awaitState(waiting, "clean wait");
        assertEquals(409, conductor.patch(waiting, """
                [{"op": "replace", "path": "/retired", "value": true}, {"op": "replace", "path": "/automated_clean", "value": false}]""").getCode(),
                "retiring, yes; changing the running cleaning, no");
        assertEquals(200, conductor.patch(waiting, """
                [{"op": "replace", "path": "/retired", "value": true}, {"op": "add", "path": "/retired_reason", "value": "EOL"}]""").getCode());
        conductor.awaitState(waiting, "manageable");
    }

    @Test
    void abortStopsAnAbortableStepAtOnceAndAnUnabortableOneAfterItEnds() throws SQLException {
        String abortable = manageable(Map.of("fake_step_seconds", Map.of("deploy.erase_devices", 60)));
        assertEquals(202, conductor.provision(abortable, "provide").getCode());
        conductor.awaitState(abortable, "clean wait");
        assertEquals(202, conductor.provision(abortable, "abort").getCode());
        assertEquals("clean failed", conductor.column(abortable, "provision_state"));
        assertTrue(conductor.column(abortable, "last_error").contains("aborted"), conductor.column(abortable, "last_error"));

        String unabortable = manageable(Map.of("fake_step_seconds", Map.of("deploy.erase_devices_metadata", 3)));
        assertEquals(202, conductor.provision(unabortable, "provide").getCode());
        conductor.awaitState(unabortable, "clean wait");
        assertEquals(202, conductor.provision(unabortable, "abort").getCode());
        assertEquals("clean wait", conductor.column(unabortable, "provision_state"), "the running step is not interrupted");
        conductor.awaitState(unabortable, "clean failed");
        assertEquals("[\"erase_devices_metadata\"]", conductor.column(unabortable, "driver_internal_info->'fake_hardware'->'erase_history'"),
                "the step finished, the next one never started");
        assertEquals("f", conductor.column(unabortable, "maintenance"), "an abort, even after its step, is no clean failure");
        assertNull(conductor.column(unabortable, "fault"));
    }

    @Test
    void waitStatesTimeOutRetiredNodesTooButNotNodesInMaintenance() throws SQLException {
        Map<String, Object> slow = Map.of("fake_step_seconds", Map.of("deploy.erase_devices", 120));
        String plain = manageable(slow);
        String retired = manageable(slow);
        String maintenance = manageable(slow);
        assertEquals(200, conductor.patch(retired, "[{\"op\": \"replace\", \"path\": \"/retired\", \"value\": true}]").getCode());
        assertEquals(202, conductor.provision(plain, "provide").getCode());
        assertEquals(202, conductor.provision(maintenance, "provide").getCode());
        assertEquals(202, conductor.clean(retired, "[{\"interface\": \"deploy\", \"step\": \"erase_devices\"}]").getCode(),
                "a retired node cannot be provided, but can be cleaned");
        for (String node : List.of(plain, retired, maintenance)) {
            conductor.awaitState(node, "clean wait");
        }
        assertEquals(202, conductor.maintenance(maintenance, true, "hands off").getCode());
        conductor.awaitState(plain, "clean failed");
        assertTrue(conductor.column(plain, "last_error").contains("Timeout"), conductor.column(plain, "last_error"));
        conductor.awaitState(retired, "clean failed"); // a retired node's cleaning has a deadline too
        assertTrue(conductor.column(retired, "last_error").contains("Timeout"), conductor.column(retired, "last_error"));
        assertEquals("clean wait", conductor.column(maintenance, "provision_state"), "periodic tasks skip nodes in maintenance");
    }

    /**
     * Ironic's node patch: not while a state transition is under way (409, and nothing changes), except to retire
     * the node (seed 000), by Ironflow's own services (the allocator records the profile it applied while the node
     * waits), and in the states Ironic lists (a failed one, say).
     */
    @Test
    void aNodeInTransitionIsNotPatchedButRetiredOrByOurServices() throws SQLException {
        String node = manageable(Map.of("fake_step_seconds", Map.of("deploy.erase_devices", 120)));
        assertEquals(202, conductor.provision(node, "provide").getCode());
        conductor.awaitState(node, "clean wait");
        String describe = "[{\"op\": \"add\", \"path\": \"/description\", \"value\": \"mid-clean\"}]";
        IntentResult refused = conductor.patch(node, describe);
        assertEquals(409, refused.getCode());
        assertEquals("Node " + node + " can not be updated while a state transition is in progress.", refused.getErrorMessage());
        assertEquals(409, conductor.patch(node, "[{\"op\": \"add\", \"path\": \"/driver_info/fake_fail_steps\", \"value\": []}]")
                .getCode(), "the running cleaning's settings least of all");
        assertNull(conductor.column(node, "description"));

        NodeIntent service = Conductor.intent(node, UpdateNode.newBuilder().setPatch(
                "[{\"op\": \"add\", \"path\": \"/extra/recorded_by\", \"value\": \"allocator\"}]").build());
        service.setPrincipal(IntentRules.toAvro(Principal.service("oneview-allocator")));
        assertEquals(200, conductor.sendAll(List.of(service)).get(service.getIntentId()).getCode(), "our own services record meanwhile");
        assertEquals(200, conductor.patch(node, "[{\"op\": \"replace\", \"path\": \"/retired\", \"value\": true}]").getCode(),
                "retiring is allowed in a transition");

        assertEquals(202, conductor.provision(node, "abort").getCode());
        conductor.awaitState(node, "clean failed");
        assertEquals(200, conductor.patch(node, describe).getCode(), "a failed state may be patched");
        assertEquals("mid-clean", conductor.column(node, "description"));
    }

    /**
     * Ironic's cleaning_error_handler: a cleaning that fails while a step runs puts the node in maintenance with the
     * fault "clean failure" and the error as its reason (an operator's own reason is kept); leaving maintenance
     * clears the fault. An abort is no failure of the node: no maintenance.
     */
    @Test
    void aFailedCleanStepPutsTheNodeInMaintenanceWithTheCleanFailureFault() throws SQLException {
        String node = manageable(Map.of("fake_fail_steps", List.of("deploy.erase_devices")));
        conductor.drive(node, "provide", "clean failed");
        assertEquals("t", conductor.column(node, "maintenance"));
        assertEquals("clean failure", conductor.column(node, "fault"));
        assertEquals(conductor.column(node, "last_error"), conductor.column(node, "maintenance_reason"));
        assertEquals("available", conductor.column(node, "target_provision_state"), "an automated cleaning's target stays");
        assertEquals(400, conductor.clean(node, "[{\"interface\": \"bios\", \"step\": \"factory_reset\"}]").getCode(),
                "nothing is cleaned on it until the operator looks");
        assertEquals(202, conductor.maintenance(node, false, null).getCode());
        assertNull(conductor.column(node, "fault"), "the fault goes with maintenance");
        conductor.drive(node, "manage", "manageable");

        String aborted = manageable(Map.of("fake_step_seconds", Map.of("deploy.erase_devices", 60)));
        assertEquals(202, conductor.provision(aborted, "provide").getCode());
        conductor.awaitState(aborted, "clean wait");
        assertEquals(202, conductor.provision(aborted, "abort").getCode());
        conductor.awaitState(aborted, "clean failed");
        assertEquals("f", conductor.column(aborted, "maintenance"));
        assertNull(conductor.column(aborted, "fault"));
    }

    @Test
    void aReservedNodeIsRetriedThenAnsweredNodeLocked() throws SQLException {
        String node = manageable(Map.of());
        conductor.execute("UPDATE nodes SET reservation = 'other-conductor' WHERE uuid = '" + node + "'");
        IntentResult locked = conductor.provision(node, "provide");
        assertEquals(409, locked.getCode());
        assertEquals("Node " + node + " is locked by host other-conductor, please retry after the current operation is completed.",
                locked.getErrorMessage());
        assertEquals(409, conductor.provision(node, "deleted").getCode(), "not actionable and reserved: 409, as Ironic");
        assertEquals(409, conductor.maintenance(node, true, null).getCode());
        conductor.execute("UPDATE nodes SET reservation = NULL WHERE uuid = '" + node + "'");
        conductor.drive(node, "provide", "available");
    }

    private String manageable(Map<String, Object> driverInfo) {
        String node = conductor.create(driverInfo);
        conductor.drive(node, "manage", "manageable");
        return node;
    }
}
