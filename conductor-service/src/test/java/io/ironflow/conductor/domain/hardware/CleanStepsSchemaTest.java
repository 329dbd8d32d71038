package io.ironflow.conductor.domain.hardware;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.ironflow.conductor.domain.Rejection;
import io.ironflow.conductor.domain.hardware.ManualClean.RequestedStep;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.NullSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/** The API's clean_steps schema: every violation is a 400 naming the step and the problem. */
class CleanStepsSchemaTest {

    private static final String INTERFACES = "vendor, power, management, firmware, deploy, bios, raid";

    @Test
    void validStepsParseInOrderWithArgs() {
        List<RequestedStep> steps = ManualClean.parse("""
                [{"interface": "raid", "step": "create_configuration", "args": {"create_nonroot_volumes": false, "b": [1, {"x": null}]}},
                 {"interface": "deploy", "step": "erase_devices"}]""");
        assertEquals(2, steps.size());
        assertEquals("raid.create_configuration", steps.get(0).key());
        assertEquals(List.of("create_nonroot_volumes", "b"), List.copyOf(steps.get(0).args().keySet()));
        assertEquals(false, steps.get(0).args().get("create_nonroot_volumes"));
        assertEquals(List.of(1, java.util.Collections.singletonMap("x", null)), steps.get(0).args().get("b"));
        assertEquals(new RequestedStep("deploy", "erase_devices", Map.of()), steps.get(1));
    }

    @Test
    void everyIronicInterfaceIsAccepted() {
        for (String iface : INTERFACES.split(", ")) {
            assertEquals(iface, ManualClean.parse("[{\"interface\": \"" + iface + "\", \"step\": \"s\"}]").get(0).interfaceName());
        }
    }

    @ParameterizedTest
    @NullSource
    @ValueSource(strings = {"", "   ", "null", "[]"})
    void missingOrEmptyIsRequired(String json) {
        Rejection r = assertThrows(Rejection.class, () -> ManualClean.parse(json));
        assertEquals(400, r.code());
        assertEquals("\"clean_steps\" is required when setting target provision state to clean", r.getMessage());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            [{"interface": "deploy"                                      | Invalid clean_steps: not valid JSON
            {"interface": "deploy", "step": "erase_devices"}             | Invalid clean_steps: must be a JSON array of steps
            "deploy.erase_devices"                                       | Invalid clean_steps: must be a JSON array of steps
            ["deploy.erase_devices"]                                     | Invalid clean_steps: step 1: must be an object
            [{"interface": "deploy", "step": "a"}, 7]                    | Invalid clean_steps: step 2: must be an object
            [{"step": "erase_devices"}]                                  | Invalid clean_steps: step 1: "interface" is required
            [{"interface": "deploy", "step": "a"}, {"interface": "boot", "step": "a"}] | Invalid clean_steps: step 2: "interface" must be one of vendor, power, management, firmware, deploy, bios, raid, not "boot"
            [{"interface": 3, "step": "a"}]                              | Invalid clean_steps: step 1: "interface" must be one of
            [{"interface": "deploy"}]                                    | Invalid clean_steps: step 1: "step" is required
            [{"interface": "deploy", "step": ""}]                        | Invalid clean_steps: step 1: "step" must be a non-empty string
            [{"interface": "deploy", "step": 5}]                         | Invalid clean_steps: step 1: "step" must be a non-empty string, not 5
            [{"interface": "deploy", "step": "a", "args": [1]}]          | Invalid clean_steps: step 1: "args" must be an object, not [1]
            [{"interface": "deploy", "step": "a", "args": "x=1"}]        | Invalid clean_steps: step 1: "args" must be an object
            [{"interface": "deploy", "step": "a", "priority": 5}]        | Invalid clean_steps: step 1: unexpected key "priority"
            [{"interface": "deploy", "step": "a", "abortable": true}]    | Invalid clean_steps: step 1: unexpected key "abortable"
            """)
    void schemaViolationsAre400(String json, String expectedPrefix) {
        Rejection r = assertThrows(Rejection.class, () -> ManualClean.parse(json));
        assertEquals(400, r.code());
        assertEquals(expectedPrefix, r.getMessage().substring(0, Math.min(expectedPrefix.length(), r.getMessage().length())),
                r.getMessage());
    }
}
