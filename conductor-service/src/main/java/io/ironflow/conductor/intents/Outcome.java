package io.ironflow.conductor.intents;

import io.ironflow.conductor.domain.Rejection;
import io.ironflow.conductor.persistence.NodeEntity;

/**
 * What one intent did: its answer, and the node after it. {@code transition} names the state machine event
 * that moved the node from {@code fromState}; it is null when the node's provision state did not change.
 */
record Outcome(boolean accepted, int code, String errorMessage, NodeEntity node, String fromState, String transition) {

    static Outcome created(NodeEntity node) {
        return new Outcome(true, 201, null, node, null, "create");
    }

    static Outcome rejected(Rejection rejection) {
        return new Outcome(false, rejection.code(), rejection.getMessage(), null, null, null);
    }

    Outcome withNode(NodeEntity current) {
        return new Outcome(accepted, code, errorMessage, current, fromState, transition);
    }
}
