package io.ironflow.messaging;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
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
 * <p>The consumer waits (the stage {@link #submit} returns) while {@code nodes} nodes are busy, or while the node
 * it just gave a record to holds {@code depth} records. Records queued behind a busy node do not count towards the
 * busy nodes, so a few records for one node do not stop other nodes' records from being taken; the depth bounds
 * how long the last of a node's records waits for its turn (at most {@code depth} records' worth of work), and
 * with it what the consumer holds in all ({@code nodes} times {@code depth} records).
 */
public final class NodeLanes {

    private static final CompletableFuture<Void> IDLE = CompletableFuture.completedFuture(null);

    /** A busy node's lane: its last submitted work and how many records it holds. */
    private static final class Lane {
        CompletableFuture<Void> tail;
        int held;
    }

    private final int nodes;
    private final int depth;
    private final Map<String, Lane> busy = new HashMap<>();
    /** The consumer's waits for room, each with the node whose lane it filled (one at a time, in practice). */
    private final ArrayDeque<Admission> admissions = new ArrayDeque<>();

    private record Admission(CompletableFuture<Void> room, String node) {
    }

    public NodeLanes(int nodes, int depth) {
        if (nodes < 1 || depth < 1) {
            throw new IllegalArgumentException("lanes need at least one node and one record per node: " + nodes + " nodes, "
                    + depth + " records deep");
        }
        this.nodes = nodes;
        this.depth = depth;
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
            Lane lane = busy.computeIfAbsent(node, n -> new Lane());
            previous = lane.tail == null ? IDLE : lane.tail;
            lane.tail = tail;
            lane.held++;
            if (hasRoomAfter(node)) {
                admitted = IDLE;
            } else {
                admitted = new CompletableFuture<>();
                admissions.add(new Admission(admitted, node));
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

    private boolean hasRoomAfter(String node) {
        Lane lane = busy.get(node);
        return busy.size() < nodes && (lane == null || lane.held < depth);
    }

    private void finished(String node, CompletableFuture<Void> tail) {
        List<CompletableFuture<Void>> next = new ArrayList<>();
        synchronized (this) {
            Lane lane = busy.get(node);
            lane.held--;
            if (lane.held == 0) {
                busy.remove(node); // its last work: the node is no longer busy
            }
            while (!admissions.isEmpty() && hasRoomAfter(admissions.peek().node())) {
                next.add(admissions.poll().room());
            }
        }
        tail.complete(null); // the node's next work may start
        next.forEach(room -> room.complete(null)); // outside the lock: the consumer carries on in this call
    }
}
