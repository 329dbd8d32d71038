package io.ironflow.conductor.domain.hardware;

/** One keyword argument a step accepts (Ironic's {@code argsinfo} entry). */
public record StepArgument(String name, String description, boolean required) {

    public static StepArgument required(String name, String description) {
        return new StepArgument(name, description, true);
    }

    public static StepArgument optional(String name, String description) {
        return new StepArgument(name, description, false);
    }
}
