package io.ironflow.teardown.actions;

/** Shipyard's {@code action_lifecycle} values, and a step's status. */
public final class Lifecycle {

    public static final String PENDING = "Pending";
    public static final String PROCESSING = "Processing";
    public static final String COMPLETE = "Complete";
    public static final String FAILED = "Failed";
    public static final String PAUSED = "Paused";

    public static final String STEP_PENDING = "pending";
    public static final String STEP_RUNNING = "running";
    public static final String STEP_SUCCEEDED = "succeeded";
    public static final String STEP_FAILED = "failed";
    public static final String STEP_SKIPPED = "skipped";

    private Lifecycle() {
    }

    public static boolean finished(String lifecycle) {
        return COMPLETE.equals(lifecycle) || FAILED.equals(lifecycle);
    }

    /**
     * The status of one step run on several nodes, as Shipyard shows one task over all its target nodes: failed
     * once any node's failed; running while any runs or some are done and others not yet begun; otherwise the
     * one status they share, succeeded when they succeeded or were skipped.
     */
    public static String combined(java.util.Collection<String> statuses) {
        if (statuses.contains(STEP_FAILED)) {
            return STEP_FAILED;
        }
        if (statuses.contains(STEP_RUNNING)) {
            return STEP_RUNNING;
        }
        if (statuses.stream().allMatch(STEP_PENDING::equals)) {
            return STEP_PENDING;
        }
        if (statuses.contains(STEP_PENDING)) {
            return STEP_RUNNING;
        }
        return statuses.stream().allMatch(STEP_SKIPPED::equals) ? STEP_SKIPPED : STEP_SUCCEEDED;
    }
}
