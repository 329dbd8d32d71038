package io.ironflow.conductor.domain.hardware;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A step a driver offers (Ironic's {@code @clean_step}). Priority 0 means manual-only: automated cleaning
 * skips it.
 */
public record StepDefinition(String interfaceName, String step, int priority, boolean abortable, List<StepArgument> args) {

    public StepDefinition {
        args = List.copyOf(args);
    }

    /** {@code interface.step}, the name Ironic uses in messages and we use in driver_info hooks. */
    public String key() {
        return interfaceName + "." + step;
    }

    public Optional<StepArgument> arg(String name) {
        return args.stream().filter(a -> a.name().equals(name)).findFirst();
    }

    /** This step as it will run: priority and abortable always come from the definition, never from the user. */
    public PlannedStep plan(Map<String, Object> requestedArgs) {
        return new PlannedStep(interfaceName, step, priority, abortable, requestedArgs);
    }

    /** The GET .../cleaning/steps item: {@code {"interface","step","priority","abortable","args":[{name,description,required}]}}. */
    public Map<String, Object> toJson() {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("interface", interfaceName);
        json.put("step", step);
        json.put("priority", priority);
        json.put("abortable", abortable);
        json.put("args", args.stream().map(a -> {
            Map<String, Object> arg = new LinkedHashMap<>();
            arg.put("name", a.name());
            arg.put("description", a.description());
            arg.put("required", a.required());
            return arg;
        }).toList());
        return json;
    }
}
