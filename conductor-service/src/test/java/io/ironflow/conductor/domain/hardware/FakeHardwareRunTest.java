package io.ironflow.conductor.domain.hardware;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What fake-hardware does to a node: verification, durations, simulated failures and step effects. */
class FakeHardwareRunTest {

    private final FakeHardware driver = new FakeHardware();
    private final FakeHardwareRecord hw = FakeHardwareRecord.fromJson(null);

    private StepResult run(String key, Map<String, Object> args) {
        return driver.run(PlannedStep.operation(key, args), hw);
    }

    @Test
    void validateRequiresNothingByDefault() {
        assertEquals(List.of(), driver.validateDriverInfo(null));
        assertEquals(List.of(), driver.validateDriverInfo(Map.of("ipmi_address", "10.0.0.1", "fake_fail_verify", false)));
    }

    @Test
    void failVerifyHook() {
        assertEquals(List.of("fake-hardware: driver_info.fake_fail_verify is set"),
                driver.validateDriverInfo(Map.of("fake_fail_verify", true)));
    }

    @Test
    void badHookTypesAreValidationProblems() {
        List<String> problems = driver.validateDriverInfo(Map.of(
                "fake_fail_verify", "yes",
                "fake_fail_steps", "deploy.erase_devices",
                "fake_step_seconds", Map.of("deploy.erase_devices", "ten")));
        assertEquals(3, problems.size(), problems.toString());
        assertTrue(problems.contains("fake-hardware: driver_info.fake_fail_verify must be a boolean"));
        assertTrue(problems.get(1).startsWith("fake-hardware: driver_info.fake_fail_steps must be a list"), problems.get(1));
        assertEquals("fake-hardware: driver_info.fake_step_seconds.deploy.erase_devices must be a non-negative number of seconds",
                problems.get(2));
        assertEquals(1, driver.validateDriverInfo(Map.of("fake_step_seconds", 5)).size());
        assertEquals(1, driver.validateDriverInfo(Map.of("fake_step_seconds", Map.of("*", -1))).size());
        assertEquals(List.of(), driver.validateDriverInfo(Map.of("fake_step_seconds", Map.of("*", 0.25),
                "fake_fail_steps", List.of("deploy.erase_devices"))));
    }

    @Test
    void durations() {
        assertEquals(Duration.ZERO, driver.duration("deploy.erase_devices", null));
        assertEquals(Duration.ZERO, driver.duration("deploy.erase_devices", Map.of()));
        Map<String, Object> info = Map.of("fake_step_seconds", Map.of("deploy.erase_devices", 3, "bios.factory_reset", 1.5));
        assertEquals(Duration.ofSeconds(3), driver.duration("deploy.erase_devices", info));
        assertEquals(Duration.ofMillis(1500), driver.duration("bios.factory_reset", info));
        assertEquals(Duration.ZERO, driver.duration("deploy.erase_devices_metadata", info));
        Map<String, Object> star = Map.of("fake_step_seconds", Map.of("*", 0.25, "deploy.deploy", 7L));
        assertEquals(Duration.ofMillis(250), driver.duration("raid.delete_configuration", star));
        assertEquals(Duration.ofSeconds(7), driver.duration("deploy.deploy", star), "a key beats \"*\"");
    }

    @Test
    void invalidDurationsFallBackToZero() {
        assertEquals(Duration.ZERO, driver.duration("deploy.erase_devices", Map.of("fake_step_seconds", "3")));
        assertEquals(Duration.ZERO, driver.duration("deploy.erase_devices",
                Map.of("fake_step_seconds", Map.of("deploy.erase_devices", "3", "*", 9))));
        assertEquals(Duration.ZERO, driver.duration("x.y", Map.of("fake_step_seconds", Map.of("*", -2))));
    }

    @Test
    void simulatedStepFailures() {
        Map<String, Object> info = Map.of("fake_fail_steps", List.of("deploy.erase_devices", "deploy.deploy"));
        StepResult erase = driver.run(PlannedStep.operation("deploy.erase_devices"), info, hw);
        assertEquals(new StepResult.Failed(
                "fake-hardware: simulated failure of step deploy.erase_devices (driver_info.fake_fail_steps)"), erase);
        assertFalse(erase.ok());
        assertFalse(driver.run(PlannedStep.operation(HardwareDriver.DEPLOY), info, hw).ok());
        assertTrue(driver.run(PlannedStep.operation("deploy.erase_devices_metadata"), info, hw).ok());
        assertEquals(0, hw.erasedDevices(), "a failed step changes nothing");
        assertNull(hw.deployedImage());
        assertEquals(List.of("deploy.erase_devices_metadata"), hw.stepHistory());
    }

    @Test
    void eraseCounting() {
        for (PlannedStep step : driver.automatedCleanPlan()) {
            assertInstanceOf(StepResult.Done.class, driver.run(step, hw));
        }
        assertTrue(run("deploy.erase_devices", Map.of()).ok());
        assertEquals(2, hw.erasedDevices());
        assertEquals(List.of("erase_devices_metadata", "erase_devices", "erase_devices"), hw.eraseHistory());
    }

    @Test
    void eraseStepsWipeEveryDiskButThoseTheNodeSkips() {
        Map<String, Object> info = Map.of("fake_disks", List.of("sda", "sdb", "sdc"));
        for (PlannedStep step : driver.automatedCleanPlan()) {
            assertTrue(driver.run(step, info, Map.of(), hw).ok());
        }
        assertEquals(Map.of("sda", 1, "sdb", 1, "sdc", 1), hw.diskErasures(), "by default every disk");
        Map<String, Object> keepData = Map.of("skip_block_devices", List.of(Map.of("name", "/dev/sdb"), Map.of("name", "sdc")));
        for (PlannedStep step : driver.automatedCleanPlan()) {
            assertTrue(driver.run(step, info, keepData, hw).ok());
        }
        assertEquals(List.of("sda", "sdb", "sdc"), hw.disks());
        assertEquals(Map.of("sda", 2, "sdb", 1, "sdc", 1), hw.diskErasures(), "the skipped disks keep their data");
        assertEquals(Map.of("sda", 2, "sdb", 1, "sdc", 1), hw.diskMetadataWipes(), "their metadata too");
        assertEquals(2, hw.erasedDevices());
        assertTrue(run("deploy.erase_devices", Map.of()).ok());
        assertEquals(Map.of("sda", 3, "sdb", 1, "sdc", 1), hw.diskErasures(), "without fake_disks the node has one disk, sda");
        assertEquals(List.of("sda"), hw.disks());
        assertEquals(List.of("fake-hardware: driver_info.fake_disks must be a non-empty list of distinct disk names like \"sda\""),
                driver.validateDriverInfo(Map.of("fake_disks", List.of("sda", "sda"))));
        assertEquals(List.of(), driver.validateDriverInfo(info));
    }

    @Test
    void powerHistoryAndRebootEndsOn() {
        assertNull(hw.powerState());
        assertTrue(driver.setPower("power off", hw).ok());
        assertEquals("power off", hw.powerState());
        assertTrue(driver.setPower("rebooting", hw).ok());
        assertEquals("power on", hw.powerState());
        assertTrue(run("power.power_off", Map.of()).ok());
        assertTrue(driver.setPower("power on", hw).ok());
        assertEquals(List.of("power off", "rebooting", "power off", "power on"), hw.powerHistory());
        assertTrue(driver.setPower("soft power off", hw).ok());
        assertEquals("power off", hw.powerState());
        assertTrue(driver.setPower("soft rebooting", hw).ok());
        assertEquals("power on", hw.powerState());
        StepResult bad = driver.setPower("power cycle", hw);
        assertEquals(new StepResult.Failed("fake-hardware: unsupported power target \"power cycle\""), bad);
        assertEquals("power on", hw.powerState());
    }

    @Test
    void biosSteps() {
        assertTrue(run("bios.apply_configuration", Map.of("settings", List.of(
                Map.of("name", "LogicalProc", "value", "Enabled"), Map.of("name", "BootMode", "value", "Uefi")))).ok());
        assertEquals(Map.of("LogicalProc", "Enabled", "BootMode", "Uefi"), hw.biosSettings());
        assertEquals(new StepResult.Done("cached 2 BIOS setting(s)"), run("bios.cache_bios_settings", Map.of()));
        StepResult bad = run("bios.apply_configuration", Map.of("settings", Map.of("LogicalProc", "Disabled")));
        assertFalse(bad.ok(), "bad args found while running fail that step");
        assertEquals("Enabled", hw.biosSettings().get("LogicalProc"));
        assertTrue(run("bios.factory_reset", Map.of()).ok());
        assertEquals(Map.of(), hw.biosSettings());
    }

    @Test
    void raidAndFirmwareSteps() {
        assertTrue(run("raid.create_configuration", Map.of("create_nonroot_volumes", false)).ok());
        assertEquals(Map.of("create_root_volume", true, "create_nonroot_volumes", false), hw.raidConfig());
        assertTrue(run("raid.delete_configuration", Map.of()).ok());
        assertNull(hw.raidConfig());
        assertTrue(run("management.update_firmware", Map.of("firmware_images",
                List.of(Map.of("url", "http://fw/bmc.bin"), Map.of("url", "http://fw/bios.bin", "checksum", "abc")))).ok());
        assertEquals(List.of("http://fw/bmc.bin", "http://fw/bios.bin"), hw.firmwareImages());
        assertFalse(run("management.update_firmware", Map.of("firmware_images", List.of())).ok());
        assertFalse(run("management.nope", Map.of()).ok());
    }

    @Test
    void operations() {
        assertTrue(run(HardwareDriver.DEPLOY, Map.of("image_source", "http://img/ubuntu.qcow2")).ok());
        assertEquals("http://img/ubuntu.qcow2", hw.deployedImage());
        assertEquals("power on", hw.powerState());
        assertTrue(run(HardwareDriver.RESCUE, Map.of()).ok());
        assertTrue(hw.rescued());
        assertTrue(run(HardwareDriver.UNRESCUE, Map.of()).ok());
        assertFalse(hw.rescued());
        assertTrue(run(HardwareDriver.TEAR_DOWN, Map.of()).ok());
        assertNull(hw.deployedImage());
        assertEquals("power off", hw.powerState());
        assertEquals(1, hw.tearDowns());
        assertEquals(List.of("http://img/ubuntu.qcow2"), hw.deployedImages());
        assertFalse(hw.inspected());
        assertInstanceOf(StepResult.Done.class, run(HardwareDriver.INSPECT, Map.of()));
        assertTrue(hw.inspected());
        assertTrue(run(HardwareDriver.VERIFY, Map.of()).ok());
        assertEquals(List.of("deploy.deploy", "rescue.rescue", "rescue.unrescue", "deploy.tear_down",
                "inspect.inspect_hardware", "management.verify"), hw.stepHistory());
    }
}
