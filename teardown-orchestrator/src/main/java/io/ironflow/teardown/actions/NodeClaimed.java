package io.ironflow.teardown.actions;

/** A node already has a running action: the new one is refused (409). */
public class NodeClaimed extends RuntimeException {

    public NodeClaimed(String node, String actionId) {
        super("node " + node + " already has a running action (" + actionId + ")");
    }
}
