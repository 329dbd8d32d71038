package io.ironflow.conductor.domain.hardware;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ironflow.conductor.domain.hardware.ManualClean.Plan;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The conductor's check of requested steps against the driver's catalogue. */
class CleanStepsResolveTest {

    private final FakeHardware driver = new FakeHardware();

    private Plan resolve(String json) {
        return ManualClean.resolve(ManualClean.parse(json), driver);
    }

    @Test
    void validPlanKeepsGivenOrderAndCopiesPriorityAndAbortable() {
        Plan plan = resolve("""
                [{"interface": "deploy", "step": "erase_devices"},
                 {"interface": "bios", "step": "apply_configuration", "args": {"settings": [{"name": "A", "value": "1"}]}},
                 {"interface": "deploy", "step": "erase_devices_metadata"},
                 {"interface": "raid", "step": "create_configuration", "args": {"create_root_volume": false}}]""");
        assertTrue(plan.ok());
        assertNull(plan.error());
        assertEquals(List.of("deploy.erase_devices", "bios.apply_configuration", "deploy.erase_devices_metadata",
                "raid.create_configuration"), plan.steps().stream().map(PlannedStep::key).toList());
        assertEquals(new PlannedStep("deploy", "erase_devices", 10, true, Map.of()), plan.steps().get(0));
        assertEquals(99, plan.steps().get(2).priority());
        assertFalse(plan.steps().get(2).abortable());
        assertTrue(plan.steps().get(3).abortable());
        assertEquals(Map.of("create_root_volume", false), plan.steps().get(3).args());
        assertEquals(List.of(Map.of("name", "A", "value", "1")), plan.steps().get(1).args().get("settings"));
    }

    @Test
    void unknownStep() {
        Plan plan = resolve("[{\"interface\": \"bios\", \"step\": \"foo\"}]");
        assertFalse(plan.ok());
        assertEquals(List.of(), plan.steps());
        assertEquals("Manual cleaning failed: step bios.foo is not supported by driver fake-hardware", plan.error());
    }

    @Test
    void missingRequiredArgument() {
        assertEquals("Manual cleaning failed: step management.update_firmware is missing required argument \"firmware_images\"",
                resolve("[{\"interface\": \"management\", \"step\": \"update_firmware\", \"args\": {}}]").error());
    }

    @Test
    void unexpectedArguments() {
        assertEquals("Manual cleaning failed: step deploy.erase_devices got unexpected argument \"x\"",
                resolve("[{\"interface\": \"deploy\", \"step\": \"erase_devices\", \"args\": {\"x\": 1}}]").error());
        assertEquals("Manual cleaning failed: step raid.create_configuration got unexpected arguments \"x\", \"priority\"",
                resolve("[{\"interface\": \"raid\", \"step\": \"create_configuration\", \"args\": {\"x\": 1, \"priority\": 2}}]").error());
    }

    @Test
    void everyProblemIsNamedInOneMessageAndNothingRuns() {
        Plan plan = resolve("""
                [{"interface": "deploy", "step": "erase_devices_metadata"},
                 {"interface": "bios", "step": "foo"},
                 {"interface": "management", "step": "update_firmware", "args": {"firmware": []}},
                 {"interface": "deploy", "step": "erase_devices", "args": {"x": true}}]""");
        assertEquals(List.of(), plan.steps());
        assertEquals("Manual cleaning failed: step bios.foo is not supported by driver fake-hardware; "
                + "step management.update_firmware is missing required argument \"firmware_images\"; "
                + "step management.update_firmware got unexpected argument \"firmware\"; "
                + "step deploy.erase_devices got unexpected argument \"x\"", plan.error());
    }

    @Test
    void reservedPowerStepsNeedNoCatalogueEntry() {
        Plan plan = resolve("""
                [{"interface": "power", "step": "power_off"}, {"interface": "deploy", "step": "erase_devices"},
                 {"interface": "power", "step": "reboot"}]""");
        assertTrue(plan.ok(), plan.error());
        assertEquals(List.of("power.power_off", "deploy.erase_devices", "power.reboot"),
                plan.steps().stream().map(PlannedStep::key).toList());
        assertEquals("Manual cleaning failed: step power.hold is not supported by driver fake-hardware",
                resolve("[{\"interface\": \"power\", \"step\": \"hold\"}]").error());
    }
}
