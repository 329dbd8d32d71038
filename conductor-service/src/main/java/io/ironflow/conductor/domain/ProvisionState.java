package io.ironflow.conductor.domain;

import java.util.Arrays;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

/** Ironic's provision states with their wire strings (ironic/common/states.py). */
public enum ProvisionState {
    ENROLL("enroll", true),
    VERIFYING("verifying", false),
    MANAGEABLE("manageable", true),
    INSPECTING("inspecting", false),
    INSPECT_WAIT("inspect wait", false),
    INSPECT_FAILED("inspect failed", false),
    CLEANING("cleaning", false),
    CLEAN_WAIT("clean wait", false),
    CLEAN_FAILED("clean failed", false),
    AVAILABLE("available", true),
    DEPLOYING("deploying", false),
    DEPLOY_WAIT("wait call-back", false),
    DEPLOY_FAILED("deploy failed", false),
    ACTIVE("active", true),
    DELETING("deleting", false),
    ERROR("error", true),
    RESCUING("rescuing", false),
    RESCUE_WAIT("rescue wait", false),
    RESCUE_FAILED("rescue failed", false),
    RESCUE("rescue", true),
    UNRESCUING("unrescuing", false),
    UNRESCUE_FAILED("unrescue failed", false),
    ADOPTING("adopting", false),
    ADOPT_FAILED("adopt failed", false);

    private static final Map<String, ProvisionState> BY_WIRE =
            Arrays.stream(values()).collect(Collectors.toUnmodifiableMap(s -> s.wire, Function.identity()));

    private final String wire;
    private final boolean stable;

    ProvisionState(String wire, boolean stable) {
        this.wire = wire;
        this.stable = stable;
    }

    public String wire() {
        return wire;
    }

    public boolean stable() {
        return stable;
    }

    /**
     * The target_provision_state a node shows on entering this state, given the one it had: none in a stable
     * state, the state to retry towards in a failed one (as Ironic's machine declares them; clean failed keeps the
     * cleaning's, as Ironic's cleaning_error_handler does), unchanged otherwise.
     */
    public String targetOnEntry(String previousTarget) {
        if (stable) {
            return null;
        }
        return switch (this) {
            // Ironic keeps the cleaning's target (manual: manageable; automated: available, the state's declared one)
            case CLEAN_FAILED -> previousTarget != null ? previousTarget : AVAILABLE.wire;
            case INSPECT_FAILED -> MANAGEABLE.wire;
            case DEPLOY_FAILED, UNRESCUE_FAILED, ADOPT_FAILED -> ACTIVE.wire;
            case RESCUE_FAILED -> RESCUE.wire;
            default -> previousTarget;
        };
    }

    /**
     * Whether a node in this state may be patched while it has a target (Ironic's UPDATE_ALLOWED_STATES): the failed
     * states, and inspection and verification, whose work does not read what a patch changes.
     */
    public boolean updatableInTransition() {
        return switch (this) {
            case DEPLOY_FAILED, INSPECTING, INSPECT_FAILED, INSPECT_WAIT, CLEAN_FAILED, ERROR, VERIFYING, ADOPT_FAILED,
                    RESCUE_FAILED, UNRESCUE_FAILED -> true;
            default -> false;
        };
    }

    public static ProvisionState fromWire(String wire) {
        ProvisionState state = BY_WIRE.get(wire);
        if (state == null) {
            throw new IllegalArgumentException("unknown provision state '" + wire + "'");
        }
        return state;
    }
}
