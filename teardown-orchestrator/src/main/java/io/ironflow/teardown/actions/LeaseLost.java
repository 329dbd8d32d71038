package io.ironflow.teardown.actions;

/**
 * A runner's write found that its instance no longer holds the action's lease (it expired, perhaps while the
 * database was out of reach, and another instance may run the action now): nothing was written, and the runner
 * stops there, leaving the action to the lease's holder.
 */
public class LeaseLost extends RuntimeException {

    public LeaseLost(String actionId, String owner) {
        this(actionId, owner, "no longer holds its lease");
    }

    public LeaseLost(String actionId, String owner, String why) {
        super("action " + actionId + ": " + owner + " " + why);
    }
}
