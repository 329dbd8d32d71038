package io.ironflow.messaging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.junit.jupiter.api.Test;

class NodeLanesTest {

    private final List<String> started = new ArrayList<>();

    /** Work that records its start and ends when the test completes the returned future. */
    private CompletableFuture<Void> work(NodeLanes lanes, String node, String name, List<CompletionStage<Void>> admissions) {
        CompletableFuture<Void> end = new CompletableFuture<>();
        admissions.add(lanes.submit(node, () -> {
            started.add(name);
            return end;
        }));
        return end;
    }

    @Test
    void aNodesIntentsRunOneAfterAnotherOtherNodesMeanwhile() {
        NodeLanes lanes = new NodeLanes(10, 4);
        List<CompletionStage<Void>> admissions = new ArrayList<>();
        CompletableFuture<Void> first = work(lanes, "a", "a1", admissions);
        CompletableFuture<Void> second = work(lanes, "a", "a2", admissions);
        work(lanes, "b", "b1", admissions);
        assertEquals(List.of("a1", "b1"), started, "a2 waits for a1; b1 does not");
        second.complete(null); // finishing out of turn changes nothing: a2 has not started
        assertEquals(List.of("a1", "b1"), started);
        first.complete(null);
        assertEquals(List.of("a1", "b1", "a2"), started);
        assertTrue(admissions.stream().allMatch(a -> a.toCompletableFuture().isDone()), "below the limit nothing waits");
    }

    @Test
    void theConsumerWaitsWhileTheLimitIsReached() {
        NodeLanes lanes = new NodeLanes(2, 4);
        List<CompletionStage<Void>> admissions = new ArrayList<>();
        CompletableFuture<Void> a = work(lanes, "a", "a1", admissions);
        work(lanes, "b", "b1", admissions);
        assertTrue(admissions.get(0).toCompletableFuture().isDone());
        assertFalse(admissions.get(1).toCompletableFuture().isDone(), "two running: no third record yet");
        a.complete(null);
        assertTrue(admissions.get(1).toCompletableFuture().isDone(), "one finished: room for the next record");
    }

    @Test
    void aFailedIntentStillFreesItsLane() {
        NodeLanes lanes = new NodeLanes(4, 4);
        List<CompletionStage<Void>> admissions = new ArrayList<>();
        work(lanes, "a", "a1", admissions).completeExceptionally(new IllegalStateException("boom"));
        work(lanes, "a", "a2", admissions);
        assertEquals(List.of("a1", "a2"), started);
    }

    @Test
    void recordsQueuedBehindABusyNodeDoNotStopOtherNodes() {
        NodeLanes lanes = new NodeLanes(2, 8);
        List<CompletionStage<Void>> admissions = new ArrayList<>();
        CompletableFuture<Void> a1 = work(lanes, "a", "a1", admissions);
        for (int i = 2; i <= 5; i++) {
            work(lanes, "a", "a" + i, admissions);
        }
        assertTrue(admissions.stream().allMatch(a -> a.toCompletableFuture().isDone()),
                "one busy node of two: the consumer takes the next record though five are held");
        work(lanes, "b", "b1", admissions);
        assertEquals(List.of("a1", "b1"), started);
        assertFalse(admissions.get(5).toCompletableFuture().isDone(), "two busy nodes: the consumer waits");
        a1.complete(null);
        assertEquals(List.of("a1", "b1", "a2"), started);
        assertFalse(admissions.get(5).toCompletableFuture().isDone(), "a is still busy with a2");
    }

    @Test
    void aFloodForOneNodeIsBoundedByItsLanesDepth() {
        NodeLanes lanes = new NodeLanes(4, 3);
        List<CompletionStage<Void>> admissions = new ArrayList<>();
        CompletableFuture<Void> a1 = work(lanes, "a", "a1", admissions);
        work(lanes, "a", "a2", admissions);
        work(lanes, "a", "a3", admissions);
        assertTrue(admissions.get(1).toCompletableFuture().isDone());
        assertFalse(admissions.get(2).toCompletableFuture().isDone(), "a holds three records: no fourth is taken");
        a1.complete(null);
        assertTrue(admissions.get(2).toCompletableFuture().isDone(), "a1 finished: room for the next record");
    }

    @Test
    void theConsumerWaitingOnAFullLaneGoesOnWhenThatLaneDrainsNotAnother() {
        NodeLanes lanes = new NodeLanes(4, 2);
        List<CompletionStage<Void>> admissions = new ArrayList<>();
        CompletableFuture<Void> b1 = work(lanes, "b", "b1", admissions);
        CompletableFuture<Void> a1 = work(lanes, "a", "a1", admissions);
        work(lanes, "a", "a2", admissions);
        assertFalse(admissions.get(2).toCompletableFuture().isDone());
        b1.complete(null);
        assertFalse(admissions.get(2).toCompletableFuture().isDone(), "b finishing leaves a's lane full");
        a1.complete(null);
        assertTrue(admissions.get(2).toCompletableFuture().isDone());
    }

    @Test
    void aLimitThatCouldNeverRunIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> new NodeLanes(0, 4));
        assertThrows(IllegalArgumentException.class, () -> new NodeLanes(4, 0));
    }
}
