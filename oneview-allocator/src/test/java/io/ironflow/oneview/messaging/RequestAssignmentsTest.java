package io.ironflow.oneview.messaging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/** A request runs only under the assignment it arrived under: revoked, or revoked and assigned back, it does not. */
class RequestAssignmentsTest {

    private static final TopicPartition P0 = new TopicPartition("ironflow.allocation-requests", 0);
    private static final TopicPartition P1 = new TopicPartition("ironflow.allocation-requests", 1);

    @Test
    void aRequestRunsOnlyWhileTheAssignmentItArrivedUnderStands() {
        RequestAssignments assignments = new RequestAssignments();
        assertEquals(RequestAssignments.NONE, assignments.generation(P0));
        assertFalse(assignments.stillHeld(P0, assignments.generation(P0)), "a partition never held");

        assignments.onPartitionsAssigned(null, List.of(P0, P1));
        long first = assignments.generation(P0);
        long other = assignments.generation(P1);
        assertTrue(assignments.stillHeld(P0, first));

        assignments.onPartitionsRevoked(null, List.of(P0, P1)); // an eager rebalance revokes every partition
        assertFalse(assignments.stillHeld(P0, first), "queued when its partition was revoked: the new holder runs it");
        assignments.onPartitionsAssigned(null, List.of(P1));
        assertFalse(assignments.stillHeld(P1, other), "assigned back: its records are redelivered, the old copies stale");
        assertTrue(assignments.stillHeld(P1, assignments.generation(P1)));
        assertFalse(assignments.stillHeld(P0, first));

        long again = assignments.generation(P1);
        assignments.onPartitionsLost(null, List.of(P1));
        assertFalse(assignments.stillHeld(P1, again), "lost, as revoked");
    }
}
