package io.ironflow.messaging;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;

/**
 * Runs each node's work one after another and different nodes' work side by side, at most {@code nodes} nodes
 * at a time. Kafka hands over a node's records in order (one partition, keyed by node uuid); a lane keeps that
 * order while slow work (a lock retry, a OneView task) holds up only its own node, not every node that shares
 * its partition. Used by the conductor for intents and by the OneView allocator for allocation requests.
 *
 * <p>The consumer waits (the stage {@link #submit} returns) while {@code nodes} nodes are busy, or while
 * {@code records} records are held in all. Records queued behind a busy node count only towards the second
 * bound, so one node sent many records does not stop other nodes' records from being taken; the second bound
 * keeps what a flood of records for one node can hold in memory.
 */
public final class NodeLanes {

    private static final CompletableFuture<Void> IDLE = CompletableFuture.completedFuture(null);

    private final int nodes;
    private final int records;
    /** Each busy node's last submitted work: its size is the number of busy nodes. */
    private final Map<String, CompletableFuture<Void>> tails = new HashMap<>();
    private final ArrayDeque<CompletableFuture<Void>> admissions = new ArrayDeque<>();
    private int held;

    /** At most {@code nodes} busy nodes, and sixteen records held per node lane. */
    public NodeLanes(int nodes) {
        this(nodes, 16 * nodes);
    }

    public NodeLanes(int nodes, int records) {
        if (nodes < 1 || records < nodes) {
            throw new IllegalArgumentException("lanes need at least one node and a record per node: " + nodes + " nodes, "
                    + records + " records");
        }
        this.nodes = nodes;
        this.records = records;
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
            held++;
            admitted = hasRoom() ? IDLE : new CompletableFuture<>();
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

    private boolean hasRoom() {
        return tails.size() < nodes && held < records;
    }

    private void finished(String node, CompletableFuture<Void> tail) {
        CompletableFuture<Void> next;
        synchronized (this) {
            tails.remove(node, tail); // only when it was the node's last work: the node is no longer busy
            held--;
            next = hasRoom() ? admissions.poll() : null;
        }
        tail.complete(null); // the node's next work may start
        if (next != null) {
            next.complete(null); // outside the lock: the consumer carries on in this call
        }
    }
}
