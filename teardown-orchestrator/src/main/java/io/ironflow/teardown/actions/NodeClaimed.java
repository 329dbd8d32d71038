package io.ironflow.teardown.actions;

/** The node is claimed, by an unfinished action or by a direct node step still running: the new one is refused (409). */
public class NodeClaimed extends RuntimeException {

    private NodeClaimed(String message) {
        super(message);
    }

    /** Whoever a node_claims row names: its action, or else its direct step. */
    static NodeClaimed by(String node, String actionId, String step) {
        return actionId != null ? byAction(node, actionId) : byStep(node, step);
    }

    public static NodeClaimed byAction(String node, String actionId) {
        return new NodeClaimed("node " + node + " is claimed by action " + actionId + ", which has not ended: its steps run there");
    }

    public static NodeClaimed byStep(String node, String step) {
        return new NodeClaimed("node " + node + " is claimed by a direct " + step + " step, which has not ended");
    }

    public static NodeClaimed byWhoever(String node) {
        return new NodeClaimed("node " + node + " was claimed by another action or step meanwhile");
    }
}
