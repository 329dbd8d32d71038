package io.ironflow.teardown.actions;

/**
 * Another action that must not run beside the new one has not ended (Shipyard's concurrency check): the new one is
 * refused (409) and nothing is stored. A site action conflicts with every other action, as in Shipyard's
 * {@code CONFLICTING_DAG_SETS}; two teardowns conflict only on a shared node ({@link NodeClaimed}).
 */
public class ActionConflict extends RuntimeException {

    ActionConflict(String name, String runningName, String runningId, String runningLifecycle) {
        super(name + " conflicts with running " + runningName + " " + runningId + " (" + runningLifecycle
                + "): let it end, or stop it, first");
    }

    /** Whether {@code a} may not run while {@code b} has not ended: a site action works on every node. */
    static boolean conflicts(String a, String b) {
        return a.equals(ActionRequests.DEPLOY_SITE) || b.equals(ActionRequests.DEPLOY_SITE);
    }
}
