package io.ironflow.teardown.steps;

import io.ironflow.teardown.status.StepFailure;

/**
 * The decommission step's timeouts, in seconds, with the spec's and Shipyard's defaults: drain 3600 with a
 * grace period of 1800 (which must be less than the drain timeout), clear labels 1800, remove etcd 1800, etcd
 * ready 600.
 */
public record DecommissionOptions(long drainTimeout, long drainGracePeriod, long clearLabelsTimeout, long removeEtcdTimeout,
        long etcdReadyTimeout) {

    public static final long DRAIN_TIMEOUT = 3600;
    public static final long DRAIN_GRACE_PERIOD = 1800;
    public static final long CLEAR_LABELS_TIMEOUT = 1800;
    public static final long REMOVE_ETCD_TIMEOUT = 1800;
    public static final long ETCD_READY_TIMEOUT = 600;

    public static final DecommissionOptions DEFAULTS = new DecommissionOptions(DRAIN_TIMEOUT, DRAIN_GRACE_PERIOD,
            CLEAR_LABELS_TIMEOUT, REMOVE_ETCD_TIMEOUT, ETCD_READY_TIMEOUT);

    public DecommissionOptions {
        checkGrace(drainGracePeriod, drainTimeout, "drain-node-grace-period", "drain-node-timeout");
    }

    /** From the query parameters (null when absent); a 400 for any that is not a whole number. */
    public static DecommissionOptions parse(String drainTimeout, String gracePeriod, String clearLabels, String removeEtcd,
            String etcdReady) {
        return new DecommissionOptions(Seconds.parse("drain-node-timeout", drainTimeout, DRAIN_TIMEOUT),
                Seconds.parse("drain-node-grace-period", gracePeriod, DRAIN_GRACE_PERIOD),
                Seconds.parse("clear-labels-timeout", clearLabels, CLEAR_LABELS_TIMEOUT),
                Seconds.parse("remove-etcd-timeout", removeEtcd, REMOVE_ETCD_TIMEOUT),
                Seconds.parse("etcd-ready-timeout", etcdReady, ETCD_READY_TIMEOUT));
    }

    /** The names, as query parameters of decommission and as parameters of a redeploy_server action. */
    public static final java.util.List<String> NAMES = java.util.List.of("drain-node-timeout", "drain-node-grace-period",
            "clear-labels-timeout", "remove-etcd-timeout", "etcd-ready-timeout");

    /**
     * From an action's parameters (a whole number, or its text; absent: the default), so that a redeploy_server
     * can set its decommission's timeouts; a 400 for any other value.
     */
    public static DecommissionOptions fromParameters(java.util.Map<String, Object> parameters) {
        String[] values = new String[NAMES.size()];
        for (int i = 0; i < values.length; i++) {
            Object value = parameters.get(NAMES.get(i));
            if (value instanceof Integer || value instanceof Long || value instanceof String) {
                values[i] = value.toString();
            } else if (value != null) {
                throw StepFailure.badRequest(NAMES.get(i) + " must be a whole number of seconds, not " + value);
            }
        }
        return parse(values[0], values[1], values[2], values[3], values[4]);
    }

    /** The spec: the grace period must be less than the timeout. */
    public static void checkGrace(long grace, long timeout, String graceName, String timeoutName) {
        if (grace >= timeout) {
            throw StepFailure.badRequest(graceName + " (" + grace + " s) must be less than " + timeoutName + " (" + timeout + " s)");
        }
    }
}
