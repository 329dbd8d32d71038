package io.ironflow.conductor.domain.hardware;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Clean steps an agent reports (Ironic's ironic-python-agent): the conductor cannot list them before the agent
 * runs, so it caches what the agent reported in driver_internal_info when cleaning starts, as Ironic does, under
 * {@value #CACHE} ({@code {"<interface>": [step, ...]}}) and {@value #REFRESHED}. {@code GET .../cleaning/steps}
 * serves that cache, and answers 202 until there is one. fake-hardware simulates it per node
 * ({@code driver_info.fake_agent_steps}); its "agent" reports the driver's catalogue.
 */
public final class AgentCleanSteps {

    public static final String CACHE = "agent_cached_clean_steps";
    public static final String REFRESHED = "agent_cached_clean_steps_refreshed";

    private AgentCleanSteps() {
    }

    /** Cleaning starts: the agent of a node that has one reports its steps, which replace the cache. */
    public static void refresh(HardwareDriver driver, Map<String, Object> driverInfo, Map<String, Object> driverInternalInfo) {
        if (!(driver instanceof FakeHardware) || !FakeHardware.agentSteps(driverInfo)) {
            return;
        }
        Map<String, List<Map<String, Object>>> byInterface = new LinkedHashMap<>();
        for (StepDefinition step : driver.cleanSteps()) {
            byInterface.computeIfAbsent(step.interfaceName(), i -> new ArrayList<>()).add(step.toJson());
        }
        driverInternalInfo.put(CACHE, byInterface);
        driverInternalInfo.put(REFRESHED, Instant.now().truncatedTo(ChronoUnit.MILLIS).toString());
    }
}
