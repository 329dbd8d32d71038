package io.ironflow.messaging;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;

/**
 * Runs each node's work one after another and different nodes' work side by side, at most {@code limit}
 * at a time. Kafka hands over a node's records in order (one partition, keyed by node uuid); a lane keeps that
 * order while slow work (a lock retry, a OneView task) holds up only its own node, not every node that shares
 * its partition. Used by the conductor for intents and by the OneView allocator for allocation requests.
 */
public final class NodeLanes {

    private static final CompletableFuture<Void> IDLE = CompletableFuture.completedFuture(null);

    private final int limit;
    private final Map<String, CompletableFuture<Void>> tails = new HashMap<>();
    private final ArrayDeque<CompletableFuture<Void>> admissions = new ArrayDeque<>();
    private int running;

    public NodeLanes(int limit) {
        if (limit < 1) {
            throw new IllegalArgumentException("a lane limit below 1 would never run anything: " + limit);
        }
        this.limit = limit;
    }

    /**
     * Queues {@code work} behind the node's earlier work. The returned stage completes once there is room for
     * more work (the caller waits on it before it takes the next record), not when this work is done.
     */
    public CompletionStage<Void> submit(String node, Supplier<CompletionStage<Void>> work) {
        CompletableFuture<Void> admitted;
        CompletableFuture<Void> previous;
        CompletableFuture<Void> tail = new CompletableFuture<>();
        synchronized (this) {
            previous = tails.getOrDefault(node, IDLE);
            tails.put(node, tail);
            running++;
            admitted = running < limit ? IDLE : new CompletableFuture<>();
            if (admitted != IDLE) {
                admissions.add(admitted);
            }
        }
        previous.whenComplete((x, failure) -> {
            CompletionStage<Void> started;
            try {
                started = work.get();
            } catch (RuntimeException e) {
                started = CompletableFuture.failedFuture(e);
            }
            started.whenComplete((y, error) -> finished(node, tail));
        });
        return admitted;
    }

    private void finished(String node, CompletableFuture<Void> tail) {
        CompletableFuture<Void> next;
        synchronized (this) {
            tails.remove(node, tail);
            running--;
            next = running < limit ? admissions.poll() : null;
        }
        tail.complete(null); // the node's next intent may start
        if (next != null) {
            next.complete(null); // outside the lock: the consumer carries on in this call
        }
    }
}
