package io.ironflow.conductor.domain;

import java.util.Arrays;
import java.util.Optional;

/**
 * The targets of {@code PUT /v1/nodes/{id}/states/provision} and the state machine event each one raises
 * (Ironic's states.VERBS: "active"/"deploy" deploy, "deleted"/"undeploy" delete).
 */
public enum ProvisionVerb {
    MANAGE("manage", ProvisionEvent.MANAGE),
    PROVIDE("provide", ProvisionEvent.PROVIDE),
    CLEAN("clean", ProvisionEvent.CLEAN),
    INSPECT("inspect", ProvisionEvent.INSPECT),
    ACTIVE("active", ProvisionEvent.DEPLOY),
    DEPLOY("deploy", ProvisionEvent.DEPLOY),
    REBUILD("rebuild", ProvisionEvent.REBUILD),
    DELETED("deleted", ProvisionEvent.DELETE),
    UNDEPLOY("undeploy", ProvisionEvent.DELETE),
    RESCUE("rescue", ProvisionEvent.RESCUE),
    UNRESCUE("unrescue", ProvisionEvent.UNRESCUE),
    ABORT("abort", ProvisionEvent.ABORT),
    ADOPT("adopt", ProvisionEvent.ADOPT);

    private final String wire;
    private final ProvisionEvent event;

    ProvisionVerb(String wire, ProvisionEvent event) {
        this.wire = wire;
        this.event = event;
    }

    public String wire() {
        return wire;
    }

    public ProvisionEvent event() {
        return event;
    }

    public static Optional<ProvisionVerb> fromWire(String wire) {
        return Arrays.stream(values()).filter(v -> v.wire.equals(wire)).findFirst();
    }
}
