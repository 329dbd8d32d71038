package io.ironflow.oneview.simulator;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Faults a test or demo injected through {@code POST /admin/faults}: {@code latency} (delay answers by
 * {@code millis}), {@code status} (answer {@code status}, e.g. 503, in OneView's error shape, or with
 * {@code "html": true} as the HTML page a proxy in front of the appliance, or one restarting, answers) and
 * {@code fail-task} (the next task named {@code task}, or any, ends in Error with {@code message}),
 * {@code slow-task} (each phase of the next task named {@code task}, or any, lasts {@code millis}: an appliance
 * busy applying firmware) and
 * {@code lose-answer} (the request is carried out, then the connection closed instead of answering: a timeout or
 * a dropped connection after the appliance acted, which the client cannot tell from one before). Each applies
 * to requests whose path starts with {@code path} (default every {@code /rest/} path) and {@code method} (default
 * any), {@code count} times (default once; -1 for ever). {@code expire-sessions} is not kept: it ends every
 * session at once.
 */
public final class Faults {

    static final Set<String> TYPES = Set.of("latency", "status", "fail-task", "slow-task", "lose-answer");

    /** One injected fault and how many more times it applies. */
    public static final class Fault {
        final String type;
        final String path;
        final String method;
        final int status;
        final long millis;
        final String task;
        final String message;
        final boolean html;
        int remaining;

        Fault(JsonObject spec) {
            this.type = spec.getString("type");
            this.path = spec.getString("path", "/rest/");
            this.method = spec.getString("method");
            this.status = spec.getInteger("status", 503);
            this.millis = spec.getLong("millis", 0L);
            this.task = spec.getString("task");
            this.message = spec.getString("message", "The operation failed (fault injected by the simulator).");
            this.html = spec.getBoolean("html", false);
            this.remaining = spec.getInteger("count", 1);
        }

        JsonObject toJson() {
            return new JsonObject().put("type", type).put("path", path).put("method", method).put("status", status)
                    .put("millis", millis).put("task", task).put("message", message).put("html", html).put("count", remaining);
        }

        public int status() {
            return status;
        }

        public long millis() {
            return millis;
        }

        public String message() {
            return message;
        }

        public boolean html() {
            return html;
        }
    }

    private final List<Fault> faults = new ArrayList<>();

    /** Validates and keeps a fault spec; a bad one is refused with a 400 and nothing kept. */
    public synchronized void add(JsonObject spec) {
        String type = spec.getString("type");
        if (type == null || !TYPES.contains(type)) {
            throw OneViewError.badRequest("INVALID_FAULT", "type must be one of " + TYPES + " or expire-sessions, not " + type);
        }
        Fault fault = new Fault(spec);
        if (fault.remaining == 0 || fault.remaining < -1 || fault.status < 100 || fault.status > 599 || fault.millis < 0) {
            throw OneViewError.badRequest("INVALID_FAULT", "count must be -1 or positive, status 100-599, millis >= 0");
        }
        faults.add(fault);
    }

    public synchronized void clear() {
        faults.clear();
    }

    public synchronized JsonArray list() {
        JsonArray list = new JsonArray();
        faults.forEach(f -> list.add(f.toJson()));
        return list;
    }

    /** Takes one use of the first {@code type} fault matching the request, if any. */
    public synchronized Optional<Fault> take(String type, String method, String path) {
        return take(f -> f.type.equals(type) && path.startsWith(f.path) && (f.method == null || f.method.equalsIgnoreCase(method)));
    }

    /** Takes one use of the first fail-task fault for a task named {@code taskName}, if any. */
    public synchronized Optional<Fault> takeTaskFailure(String taskName) {
        return take(f -> f.type.equals("fail-task") && (f.task == null || f.task.equalsIgnoreCase(taskName)));
    }

    /** Takes one use of the first slow-task fault for a task named {@code taskName}, if any. */
    public synchronized Optional<Fault> takeSlowTask(String taskName) {
        return take(f -> f.type.equals("slow-task") && (f.task == null || f.task.equalsIgnoreCase(taskName)));
    }

    private Optional<Fault> take(java.util.function.Predicate<Fault> matches) {
        for (Iterator<Fault> it = faults.iterator(); it.hasNext();) {
            Fault fault = it.next();
            if (matches.test(fault)) {
                if (fault.remaining > 0 && --fault.remaining == 0) {
                    it.remove();
                }
                return Optional.of(fault);
            }
        }
        return Optional.empty();
    }
}
