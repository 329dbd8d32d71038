package io.ironflow.conductor.domain;

/** The events of Ironic's provision state machine (ironic/common/states.py), with their wire names. */
public enum ProvisionEvent {
    MANAGE("manage"),
    PROVIDE("provide"),
    CLEAN("clean"),
    INSPECT("inspect"),
    DEPLOY("deploy"),
    REBUILD("rebuild"),
    DELETE("delete"),
    RESCUE("rescue"),
    UNRESCUE("unrescue"),
    ABORT("abort"),
    ADOPT("adopt"),
    // Raised by the conductor's own work, never by a client.
    DONE("done"),
    FAIL("fail"),
    WAIT("wait"),
    RESUME("resume");

    private final String wire;

    ProvisionEvent(String wire) {
        this.wire = wire;
    }

    public String wire() {
        return wire;
    }
}
