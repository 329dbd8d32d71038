package io.ironflow.conductor.domain.hardware;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The record lives in driver_internal_info.fake_hardware as JSON; nothing may be lost on the way. */
class FakeHardwareRecordTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private final FakeHardware driver = new FakeHardware();

    @Test
    void freshRecordIsEmpty() {
        FakeHardwareRecord r = FakeHardwareRecord.fromJson(null);
        assertNull(r.powerState());
        assertEquals(List.of(), r.powerHistory());
        assertEquals(0, r.erasedDevices());
        assertNull(r.raidConfig());
        assertFalse(r.inspected());
        assertEquals(r.toJson(), FakeHardwareRecord.fromDriverInternalInfo(Map.of("other", 1)).toJson());
        assertEquals(r.toJson(), FakeHardwareRecord.fromDriverInternalInfo(null).toJson());
    }

    /** A node cleaned thousands of times keeps the last hundred of each history, the newest last. */
    @Test
    void historiesKeepTheirLastEntries() {
        FakeHardwareRecord r = FakeHardwareRecord.fromJson(null);
        for (int i = 0; i < 3 * FakeHardwareRecord.HISTORY; i++) {
            driver.setPower(i % 2 == 0 ? "power on" : "power off", r);
            driver.run(PlannedStep.operation("deploy.erase_devices_metadata"), r);
        }
        assertEquals(FakeHardwareRecord.HISTORY, r.powerHistory().size());
        assertEquals("power off", r.powerHistory().get(FakeHardwareRecord.HISTORY - 1));
        assertEquals(FakeHardwareRecord.HISTORY, r.eraseHistory().size());
        assertEquals(FakeHardwareRecord.HISTORY, FakeHardwareRecord.fromJson(r.toJson()).eraseHistory().size());
    }

    @Test
    @SuppressWarnings("unchecked")
    void roundTripsThroughJsonText() throws Exception {
        FakeHardwareRecord r = FakeHardwareRecord.fromJson(null);
        driver.setPower("power on", r);
        driver.run(PlannedStep.operation("deploy.erase_devices_metadata"), r);
        driver.run(PlannedStep.operation("deploy.erase_devices"), r);
        driver.run(PlannedStep.operation("bios.apply_configuration",
                Map.of("settings", List.of(Map.of("name", "A", "value", 1)))), r);
        driver.run(PlannedStep.operation("raid.create_configuration"), r);
        driver.run(PlannedStep.operation("management.update_firmware",
                Map.of("firmware_images", List.of(Map.of("url", "http://fw/1")))), r);
        driver.run(PlannedStep.operation(HardwareDriver.DEPLOY, Map.of("image_source", "img")), r);
        driver.run(PlannedStep.operation(HardwareDriver.INSPECT), r);
        driver.run(PlannedStep.operation(HardwareDriver.RESCUE), r);

        String text = JSON.writeValueAsString(r.toJson());
        Map<String, Object> driverInternalInfo = new HashMap<>();
        driverInternalInfo.put(FakeHardwareRecord.KEY, JSON.readValue(text, Map.class));
        FakeHardwareRecord back = FakeHardwareRecord.fromDriverInternalInfo(driverInternalInfo);

        assertEquals(r.toJson(), back.toJson());
        assertEquals(text, JSON.writeValueAsString(back.toJson()), "stable key order");
        assertEquals("power on", back.powerState());
        assertEquals(List.of("power on", "power on"), back.powerHistory());
        assertEquals(1, back.erasedDevices());
        assertEquals(List.of("erase_devices_metadata", "erase_devices"), back.eraseHistory());
        assertEquals(Map.of("A", 1), back.biosSettings());
        assertEquals(Map.of("create_root_volume", true, "create_nonroot_volumes", true), back.raidConfig());
        assertEquals(List.of("http://fw/1"), back.firmwareImages());
        assertEquals("img", back.deployedImage());
        assertTrue(back.inspected());
        assertTrue(back.rescued());
        assertEquals(8, back.stepHistory().size());
        assertTrue(text.startsWith("{\"power_state\":\"power on\",\"power_history\":[\"power on\",\"power on\"],\"erased_devices\":1,"), text);
    }

    @Test
    void recordKeepsGrowingAcrossLoads() {
        FakeHardwareRecord r = FakeHardwareRecord.fromJson(null);
        driver.run(PlannedStep.operation("deploy.erase_devices"), r);
        FakeHardwareRecord again = FakeHardwareRecord.fromJson(r.toJson());
        driver.run(PlannedStep.operation("deploy.erase_devices"), again);
        assertEquals(2, again.erasedDevices());
        assertEquals(1, r.erasedDevices(), "toJson is a copy, not a view");
    }
}
