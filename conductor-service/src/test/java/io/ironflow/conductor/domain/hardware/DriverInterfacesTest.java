package io.ironflow.conductor.domain.hardware;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DriverInterfacesTest {

    private final FakeHardware fake = new FakeHardware();

    @Test
    void fakeHardwareDeclaresEveryInterfaceTypeWithItsDefaultFirst() {
        assertEquals(DriverInterfaces.TYPES, List.copyOf(fake.interfaces().keySet()));
        assertEquals("fake", DriverInterfaces.defaultOf(fake, "power"));
        assertEquals(List.of("fake", "no-raid"), fake.interfaces().get("raid"));
        assertTrue(DriverInterfaces.unsupported(DriverInterfaces.defaultOf(fake, "console")));
        assertFalse(DriverInterfaces.unsupported(DriverInterfaces.defaultOf(fake, "network")), "noop is an implementation");
    }

    @Test
    void propertiesDescribeEveryDriverInfoKeyTheFakeReads() {
        assertEquals(List.of(FakeHardware.AGENT_STEPS, FakeHardware.DISKS, FakeHardware.FAIL_STEPS, FakeHardware.FAIL_VERIFY, FakeHardware.STEP_SECONDS),
                List.copyOf(fake.properties().keySet()));
        fake.properties().values().forEach(d -> assertTrue(d.endsWith("Optional."), d));
    }

    @Test
    void validateChecksDriverInfoForPowerAndManagementOnly() {
        Map<String, Map<String, Object>> ok = DriverInterfaces.validate(fake, null);
        assertEquals(DriverInterfaces.VALIDATED, List.copyOf(ok.keySet()));
        assertEquals(Map.of("result", true), ok.get("power"));
        assertEquals(Map.of("result", true), ok.get("deploy"));
        assertNull(ok.get("console").get("result"));
        assertEquals("not supported", ok.get("console").get("reason"));

        Map<String, Map<String, Object>> bad = DriverInterfaces.validate(fake, Map.of(FakeHardware.FAIL_VERIFY, true));
        assertEquals(false, bad.get("power").get("result"));
        assertEquals("fake-hardware: driver_info.fake_fail_verify is set", bad.get("management").get("reason"));
        assertEquals(Map.of("result", true), bad.get("boot"));
    }

    @Test
    void aDriverDeclaringNoInterfacesSupportsNone() {
        HardwareDriver bare = new HardwareDriver() {
            public String name() { return "bare"; }
            public List<String> validateDriverInfo(Map<String, Object> driverInfo) { return List.of(); }
            public List<StepDefinition> cleanSteps() { return List.of(); }
            public java.time.Duration duration(String stepKey, Map<String, Object> driverInfo) { return java.time.Duration.ZERO; }
            public StepResult run(PlannedStep step, Map<String, Object> driverInfo, FakeHardwareRecord hardware) { return StepResult.done("x"); }
            public StepResult setPower(String target, FakeHardwareRecord hardware) { return StepResult.done(target); }
        };
        DriverInterfaces.validate(bare, Map.of()).values().forEach(v -> assertEquals("not supported", v.get("reason")));
    }

    @Test
    void theAgentCacheIsWrittenOnlyForAgentNodesGroupedByInterface() {
        Map<String, Object> internal = new HashMap<>();
        AgentCleanSteps.refresh(fake, Map.of(), internal);
        assertTrue(internal.isEmpty());
        AgentCleanSteps.refresh(fake, Map.of(FakeHardware.AGENT_STEPS, true), internal);
        @SuppressWarnings("unchecked")
        Map<String, List<Map<String, Object>>> cache = (Map<String, List<Map<String, Object>>>) internal.get(AgentCleanSteps.CACHE);
        assertEquals(List.of("management", "deploy", "bios", "raid"), List.copyOf(cache.keySet()));
        assertEquals("erase_devices_metadata", cache.get("deploy").get(1).get("step"));
        assertTrue(internal.containsKey(AgentCleanSteps.REFRESHED));
    }
}
