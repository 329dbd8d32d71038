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
}
