package io.ironflow.conductor.domain.hardware;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ironflow.conductor.domain.hardware.Drivers;
import io.ironflow.conductor.domain.Rejection;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The fake-hardware catalogue: Ironic's steps, priorities and args; automated order; min_priority filter. */
class FakeHardwareCatalogueTest {

    private final FakeHardware driver = new FakeHardware();

    private StepDefinition step(String key) {
        return driver.cleanSteps().stream().filter(d -> d.key().equals(key)).findFirst().orElseThrow();
    }

    @Test
    void catalogueHasIronicsFakeSteps() {
        assertEquals(List.of("management.update_firmware", "deploy.erase_devices", "deploy.erase_devices_metadata",
                "bios.apply_configuration", "bios.factory_reset", "bios.cache_bios_settings",
                "raid.create_configuration", "raid.delete_configuration"),
                driver.cleanSteps().stream().map(StepDefinition::key).toList());
        assertEquals(10, step("deploy.erase_devices").priority());
        assertTrue(step("deploy.erase_devices").abortable());
        assertEquals(99, step("deploy.erase_devices_metadata").priority());
        assertFalse(step("deploy.erase_devices_metadata").abortable());
        assertEquals(0, step("bios.apply_configuration").priority());
        assertEquals(List.of("settings"), step("bios.apply_configuration").args().stream().map(StepArgument::name).toList());
        assertTrue(step("bios.apply_configuration").args().get(0).required());
        assertTrue(step("management.update_firmware").arg("firmware_images").orElseThrow().required());
        StepDefinition raid = step("raid.create_configuration");
        assertEquals(List.of("create_root_volume", "create_nonroot_volumes"), raid.args().stream().map(StepArgument::name).toList());
        assertTrue(raid.args().stream().noneMatch(StepArgument::required));
        assertTrue(driver.cleanSteps().stream().flatMap(d -> d.args().stream())
                .allMatch(a -> a.description() != null && a.description().length() > 20), "every arg is described");
        assertEquals("fake-hardware", driver.name());
    }

    @Test
    void automatedPlanIsMetadataThenFullEraseWithNoArgs() {
        List<PlannedStep> plan = driver.automatedCleanPlan();
        assertEquals(List.of("deploy.erase_devices_metadata", "deploy.erase_devices"), plan.stream().map(PlannedStep::key).toList());
        assertEquals(99, plan.get(0).priority());
        assertFalse(plan.get(0).abortable());
        assertEquals(10, plan.get(1).priority());
        assertTrue(plan.get(1).abortable());
        assertTrue(plan.stream().allMatch(p -> p.args().isEmpty()));
    }

    @Test
    void automatedPlanTiesKeepCatalogueOrder() {
        HardwareDriver tied = new Stub(List.of(
                new StepDefinition("deploy", "b", 5, false, List.of()),
                new StepDefinition("bios", "zero", 0, false, List.of()),
                new StepDefinition("raid", "a", 5, false, List.of()),
                new StepDefinition("deploy", "top", 50, false, List.of())));
        assertEquals(List.of("deploy.top", "deploy.b", "raid.a"), tied.automatedCleanPlan().stream().map(PlannedStep::key).toList());
    }

    @Test
    void minPriorityFiltersAndSortsDescending() {
        assertEquals(List.of("deploy.erase_devices_metadata", "deploy.erase_devices"),
                driver.cleanSteps(1).stream().map(StepDefinition::key).toList());
        assertEquals(List.of("deploy.erase_devices_metadata"), driver.cleanSteps(11).stream().map(StepDefinition::key).toList());
        assertEquals(List.of(), driver.cleanSteps(100));
        List<StepDefinition> all = driver.cleanSteps(0);
        assertEquals(8, all.size());
        assertEquals("deploy.erase_devices_metadata", all.get(0).key());
        assertEquals("deploy.erase_devices", all.get(1).key());
        assertEquals("management.update_firmware", all.get(2).key(), "zero-priority steps follow in catalogue order");
    }

    @Test
    void definitionJsonIsTheCleaningStepsItem() {
        Map<String, Object> json = step("management.update_firmware").toJson();
        assertEquals(List.of("interface", "step", "priority", "abortable", "args"), List.copyOf(json.keySet()));
        assertEquals("management", json.get("interface"));
        assertEquals("update_firmware", json.get("step"));
        assertEquals(0, json.get("priority"));
        assertEquals(false, json.get("abortable"));
        @SuppressWarnings("unchecked")
        Map<String, Object> arg = ((List<Map<String, Object>>) json.get("args")).get(0);
        assertEquals("firmware_images", arg.get("name"));
        assertEquals(true, arg.get("required"));
    }

    @Test
    void driversIsARegistryOfHardwareDrivers() {
        assertEquals(java.util.Set.of("fake-hardware", "oneview"), Drivers.enabled());
        assertEquals("fake-hardware", Drivers.get("fake-hardware").name());
        assertTrue(Drivers.find("ipmi").isEmpty());
        Rejection r = assertThrows(Rejection.class, () -> Drivers.get("ipmi"));
        assertEquals(400, r.code());
        assertEquals("No valid host was found. Reason: No conductor service registered which supports driver ipmi.", r.getMessage());
    }

    /** Only the catalogue matters to the default methods. */
    private record Stub(List<StepDefinition> cleanSteps) implements HardwareDriver {
        public String name() {
            return "stub";
        }

        public List<String> validateDriverInfo(Map<String, Object> driverInfo) {
            return List.of();
        }

        public java.time.Duration duration(String stepKey, Map<String, Object> driverInfo) {
            return java.time.Duration.ZERO;
        }

        public StepResult run(PlannedStep step, Map<String, Object> driverInfo, FakeHardwareRecord hardware) {
            return StepResult.done("");
        }

        public StepResult setPower(String target, FakeHardwareRecord hardware) {
            return StepResult.done("");
        }
    }
}
