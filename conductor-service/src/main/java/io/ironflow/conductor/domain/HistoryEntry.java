package io.ironflow.conductor.domain;

/**
 * One node history record (Ironic API 1.78) made from one node-event: Ironic's {@code severity} (ERROR when the
 * transition enters a failure state, INFO otherwise), {@code event_type} (Ironic's category names: provisioning,
 * cleaning, deploying, unprovision, introspection, verify, adoption, rescue, transition) and the human-readable
 * {@code event}, which names the transition and the intent that caused it.
 */
public record HistoryEntry(String severity, String eventType, String event) {

    /**
     * The entry for an event that moved no provision state but says what happened ({@code detail}: a power state
     * corrected by the power sync), as Ironic records its power sync in node history: event type
     * {@code monitoring}, ERROR when the sync gave up (the node went to maintenance), INFO otherwise.
     */
    public static HistoryEntry of(String from, String event, String to, String intentId, String detail) {
        if (detail == null) {
            return of(from, event, to, intentId);
        }
        return new HistoryEntry(event.endsWith("failed") ? "ERROR" : "INFO", "monitoring", detail);
    }

    /** The entry for the transition {@code from --event--> to} (from null: created; to null: deleted). */
    public static HistoryEntry of(String from, String event, String to, String intentId) {
        boolean failed = to != null && (to.endsWith(" failed") || to.equals("error"));
        String text = (from == null ? "Node created in " + to
                : to == null ? "Node deleted in " + from
                : "Node moved from " + from + " to " + to)
                + " (" + event + ")" + (intentId == null ? " by the conductor's own work" : ", intent " + intentId);
        return new HistoryEntry(failed ? "ERROR" : "INFO", eventType(event, to), text + ".");
    }

    private static String eventType(String event, String to) {
        String state = to == null ? "" : to;
        if (state.contains("clean")) {
            return "cleaning";
        }
        if (state.contains("inspect")) {
            return "introspection";
        }
        if (state.contains("verif")) {
            return "verify";
        }
        if (state.contains("adopt")) {
            return "adoption";
        }
        if (state.contains("rescue")) {
            return "rescue";
        }
        if (state.contains("deleting") || "deleted".equals(event) || "undeploy".equals(event)) {
            return "unprovision";
        }
        if (state.contains("deploy") || state.equals("wait call-back") || state.equals("active")) {
            return "deploying";
        }
        if (event.equals("create") || event.equals("manage") || event.equals("provide")) {
            return "provisioning";
        }
        return "transition";
    }
}
