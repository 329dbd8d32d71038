package io.ironflow.conductor.intents;

import io.ironflow.conductor.domain.Rejection;
import io.ironflow.conductor.persistence.NodeEntity;

/**
 * What one intent did: its answer and the node after it (null when there is none, or it was deleted).
 * {@code callBackAt} (epoch millis) says the node's work is parked in a wait state until the simulated
 * hardware calls back then; this conductor schedules that once the transaction commits. {@code deletesNode}: the
 * intent's answer deletes the row of the node the transaction locked, in the answer's own statement.
 */
record Outcome(boolean accepted, int code, String errorMessage, NodeEntity node, Long callBackAt, boolean deletesNode) {

    Outcome(boolean accepted, int code, String errorMessage, NodeEntity node, Long callBackAt) {
        this(accepted, code, errorMessage, node, callBackAt, false);
    }

    static Outcome done(int code, NodeEntity node) {
        return new Outcome(true, code, null, node, null);
    }

    static Outcome parked(NodeEntity node, Long callBackAt) {
        return new Outcome(true, 202, null, node, callBackAt);
    }

    /** The locked node is deleted with the answer (Ironic: 204, no body). */
    static Outcome deleted() {
        return new Outcome(true, 204, null, null, null, true);
    }

    static Outcome rejected(Rejection rejection) {
        return new Outcome(false, rejection.code(), rejection.getMessage(), null, null);
    }

    Outcome withNode(NodeEntity current) {
        return new Outcome(accepted, code, errorMessage, current, callBackAt, deletesNode);
    }
}
