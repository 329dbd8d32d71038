package io.ironflow.conductor.intents;

import io.ironflow.conductor.domain.Rejection;
import io.ironflow.conductor.persistence.NodeEntity;

/**
 * What one intent did: its answer and the node after it (null when there is none, or it was deleted).
 * {@code startWork} says the node now has work to run on this conductor once the transaction commits.
 */
record Outcome(boolean accepted, int code, String errorMessage, NodeEntity node, boolean startWork) {

    static Outcome done(int code, NodeEntity node) {
        return new Outcome(true, code, null, node, false);
    }

    static Outcome working(NodeEntity node) {
        return new Outcome(true, 202, null, node, true);
    }

    static Outcome rejected(Rejection rejection) {
        return new Outcome(false, rejection.code(), rejection.getMessage(), null, false);
    }

    Outcome withNode(NodeEntity current) {
        return new Outcome(accepted, code, errorMessage, current, startWork);
    }
}
