package io.ironflow.conductor.intents;

import io.ironflow.conductor.domain.Rejection;
import io.ironflow.conductor.persistence.NodeEntity;

/**
 * What one intent did: its answer and the node after it (null when there is none, or it was deleted).
 * {@code callBackAt} (epoch millis) says the node's work is parked in a wait state until the simulated
 * hardware calls back then; this conductor schedules that once the transaction commits. {@code rowChange}: what
 * the answer's own statement does to the intent's node's row ({@link IntentProcessor} sets it once the handler has
 * answered; only an accepted outcome changes a row).
 */
record Outcome(boolean accepted, int code, String errorMessage, NodeEntity node, Long callBackAt, RowChange rowChange) {

    /** What the answer's statement does to the node's row. */
    enum RowChange {
        /** Nothing: refused, answered again, or a change the handler wrote itself. */
        NONE,
        /** Inserts {@link #node()}, a node enrolled by this intent. */
        INSERT,
        /** Writes {@link #node()}, the node the transaction locked, as the command left it. */
        UPDATE,
        /** Deletes the locked node (its ports and portgroups go with it, ON DELETE CASCADE). */
        DELETE
    }

    Outcome {
        if (!accepted && rowChange != RowChange.NONE) {
            throw new IllegalArgumentException("a refused intent changes no row, but " + rowChange + " was asked");
        }
    }

    Outcome(boolean accepted, int code, String errorMessage, NodeEntity node, Long callBackAt) {
        this(accepted, code, errorMessage, node, callBackAt, RowChange.NONE);
    }

    static Outcome done(int code, NodeEntity node) {
        return new Outcome(true, code, null, node, null);
    }

    static Outcome parked(NodeEntity node, Long callBackAt) {
        return new Outcome(true, 202, null, node, callBackAt);
    }

    /** The locked node is deleted with the answer (Ironic: 204, no body). */
    static Outcome deleted() {
        return new Outcome(true, 204, null, null, null, RowChange.DELETE);
    }

    static Outcome rejected(Rejection rejection) {
        return new Outcome(false, rejection.code(), rejection.getMessage(), null, null);
    }

    Outcome withNode(NodeEntity current) {
        return new Outcome(accepted, code, errorMessage, current, callBackAt, rowChange);
    }

    Outcome changing(RowChange change) {
        return new Outcome(accepted, code, errorMessage, node, callBackAt, change);
    }
}
