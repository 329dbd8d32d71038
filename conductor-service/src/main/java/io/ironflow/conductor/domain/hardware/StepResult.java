package io.ironflow.conductor.domain.hardware;

/** How one step ended. A failed step fails the whole operation (clean failed, deploy failed...). */
public sealed interface StepResult {

    record Done(String note) implements StepResult {
    }

    record Failed(String error) implements StepResult {
    }

    static StepResult done(String note) {
        return new Done(note);
    }

    static StepResult failed(String error) {
        return new Failed(error);
    }

    default boolean ok() {
        return this instanceof Done;
    }
}
