package io.ironflow.conductor.intents;

import io.ironflow.conductor.domain.Rejection;

/** The node is reserved by someone else right now: retry shortly, then answer NodeLocked (409). */
final class NodeBusy extends RuntimeException {

    NodeBusy(String node, String holder) {
        super("Node " + node + " is locked by host " + holder + ", please retry after the current operation is completed.",
                null, false, false);
    }

    Rejection asRejection() {
        return Rejection.conflict(getMessage());
    }
}
