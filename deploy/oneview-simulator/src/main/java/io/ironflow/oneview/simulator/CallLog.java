package io.ironflow.oneview.simulator;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayDeque;
import java.util.Deque;

/**
 * Every call the OneView API received ({@code GET /admin/calls}), oldest first, each with a sequence number so
 * a reader can ask for what came after it. Keeps the last 100,000.
 */
public final class CallLog {

    private static final int KEEP = 100_000;

    private final Deque<JsonObject> calls = new ArrayDeque<>();
    private long seq;

    public synchronized void record(String method, String path, String query, int status, String body) {
        calls.addLast(new JsonObject().put("seq", ++seq).put("method", method).put("path", path).put("query", query)
                .put("status", status).put("body", body).put("at", System.currentTimeMillis()));
        if (calls.size() > KEEP) {
            calls.removeFirst();
        }
    }

    public synchronized JsonArray since(long after) {
        JsonArray list = new JsonArray();
        calls.stream().filter(c -> c.getLong("seq") > after).forEach(list::add);
        return list;
    }

    public synchronized void clear() {
        calls.clear();
    }
}
