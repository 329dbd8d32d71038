package io.ironflow.conductor.domain;

import static io.ironflow.conductor.domain.ProvisionEvent.CLEAN;
import static io.ironflow.conductor.domain.ProvisionEvent.DONE;
import static io.ironflow.conductor.domain.ProvisionEvent.MANAGE;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The work behind each -ING state: the driver operations it runs (cleaning runs a plan of its own), the wait
 * state an asynchronous step parks the node in (none: every step runs to its end), and the event that ends it.
 */
public enum Operation {
    VERIFY(ProvisionState.VERIFYING, null, List.of()),
    CLEAN_NODE(ProvisionState.CLEANING, ProvisionState.CLEAN_WAIT, List.of()),
    INSPECT(ProvisionState.INSPECTING, ProvisionState.INSPECT_WAIT, List.of("inspect.inspect_hardware")),
    DEPLOY(ProvisionState.DEPLOYING, ProvisionState.DEPLOY_WAIT, List.of("deploy.deploy")),
    TEAR_DOWN(ProvisionState.DELETING, null, List.of("deploy.tear_down")),
    RESCUE(ProvisionState.RESCUING, ProvisionState.RESCUE_WAIT, List.of("rescue.rescue")),
    UNRESCUE(ProvisionState.UNRESCUING, null, List.of("rescue.unrescue")),
    ADOPT(ProvisionState.ADOPTING, null, List.of());

    private final ProvisionState working;
    private final ProvisionState waiting;
    private final List<String> steps;

    Operation(ProvisionState working, ProvisionState waiting, List<String> steps) {
        this.working = working;
        this.waiting = waiting;
        this.steps = steps;
    }

    /** Every state a node waits in while an asynchronous step runs (each operation's {@link #waiting()}). */
    public static List<ProvisionState> waitStates() {
        return Arrays.stream(values()).map(op -> op.waiting).filter(Objects::nonNull).toList();
    }

    /** The operation a node in {@code state} is in the middle of, running or waiting; empty in other states. */
    public static Optional<Operation> of(ProvisionState state) {
        return Arrays.stream(values()).filter(op -> op.working == state || op.waiting == state).findFirst();
    }

    public ProvisionState working() {
        return working;
    }

    /** Where an asynchronous step waits, or empty when this operation's steps always run to the end. */
    public Optional<ProvisionState> waiting() {
        return Optional.ofNullable(waiting);
    }

    /** The driver operations, as interface.step keys, for every operation but cleaning. */
    public List<String> steps() {
        return steps;
    }

    /**
     * The event that ends the operation well. Cleaning ends in manageable when it was manual or the node is
     * retired (seed 000: a retired node never becomes available); tear-down goes on to cleaning.
     */
    public ProvisionEvent success(boolean manualClean, boolean retired) {
        return switch (this) {
            case CLEAN_NODE -> manualClean || retired ? MANAGE : DONE;
            case TEAR_DOWN -> CLEAN;
            default -> DONE;
        };
    }

    /** How the node leaves the wait state when its step finishes: back to work, or straight to the end. */
    public ProvisionEvent resume() {
        return ProvisionStateMachine.next(waiting, ProvisionEvent.RESUME).isPresent() ? ProvisionEvent.RESUME : DONE;
    }
}
