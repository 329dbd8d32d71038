package io.ironflow.conductor.domain.hardware;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** PlannedStep is stored as Ironic's clean_step dict in jsonb: it must survive the trip. */
class CleanStepJsonTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void toJsonIsIronicsCleanStepDict() throws Exception {
        PlannedStep step = new PlannedStep("bios", "apply_configuration", 0, false,
                Map.of("settings", List.of(Map.of("name", "LogicalProc", "value", "Enabled"))));
        String text = JSON.writeValueAsString(step.toJson());
        assertTrue(text.startsWith("{\"interface\":\"bios\",\"step\":\"apply_configuration\",\"priority\":0,"
                + "\"abortable\":false,\"args\":{"), text);
        assertEquals(JSON.readTree("{\"interface\":\"bios\",\"step\":\"apply_configuration\",\"priority\":0,"
                + "\"abortable\":false,\"args\":{\"settings\":[{\"name\":\"LogicalProc\",\"value\":\"Enabled\"}]}}"),
                JSON.readTree(text));
    }

    @Test
    @SuppressWarnings("unchecked")
    void roundTripsThroughJsonText() throws Exception {
        PlannedStep step = new PlannedStep("deploy", "erase_devices", 10, true, Map.of("x", 1.5));
        String text = JSON.writeValueAsString(step.toJson());
        assertEquals(step, PlannedStep.fromJson(JSON.readValue(text, Map.class)));
        assertEquals("deploy.erase_devices", step.key());
    }

    @Test
    void missingArgsAndFlagsDefault() {
        PlannedStep step = PlannedStep.fromJson(Map.of("interface", "deploy", "step", "erase_devices", "priority", 10));
        assertEquals(new PlannedStep("deploy", "erase_devices", 10, false, Map.of()), step);
    }

    @Test
    void operationsAreStepsWithPriorityZero() {
        PlannedStep deploy = PlannedStep.operation(HardwareDriver.DEPLOY, Map.of("image_source", "http://img/x.qcow2"));
        assertEquals(new PlannedStep("deploy", "deploy", 0, false, Map.of("image_source", "http://img/x.qcow2")), deploy);
        assertEquals("inspect.inspect_hardware", PlannedStep.operation(HardwareDriver.INSPECT).key());
        assertThrows(IllegalArgumentException.class, () -> PlannedStep.operation("deploy"));
        assertThrows(IllegalArgumentException.class, () -> PlannedStep.operation("deploy."));
    }
}
