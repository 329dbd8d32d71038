package io.ironflow.teardown.actions;

import static io.ironflow.teardown.actions.Lifecycle.STEP_FAILED;
import static io.ironflow.teardown.actions.Lifecycle.STEP_PENDING;
import static io.ironflow.teardown.actions.Lifecycle.STEP_RUNNING;
import static io.ironflow.teardown.actions.Lifecycle.STEP_SKIPPED;
import static io.ironflow.teardown.actions.Lifecycle.STEP_SUCCEEDED;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** A step run on several nodes shows one status, as Shipyard's one task over all of them. */
class LifecycleTest {

    @Test
    void aStepOnSeveralNodesCombinesTheirStatuses() {
        assertEquals(STEP_PENDING, Lifecycle.combined(List.of(STEP_PENDING, STEP_PENDING)));
        assertEquals(STEP_RUNNING, Lifecycle.combined(List.of(STEP_SUCCEEDED, STEP_RUNNING, STEP_PENDING)));
        // between two nodes' runs: begun, not done
        assertEquals(STEP_RUNNING, Lifecycle.combined(List.of(STEP_SUCCEEDED, STEP_PENDING)));
        assertEquals(STEP_FAILED, Lifecycle.combined(List.of(STEP_SUCCEEDED, STEP_FAILED, STEP_SKIPPED)));
        assertEquals(STEP_FAILED, Lifecycle.combined(List.of(STEP_RUNNING, STEP_FAILED)));
        assertEquals(STEP_SUCCEEDED, Lifecycle.combined(List.of(STEP_SUCCEEDED, STEP_SKIPPED)));
        assertEquals(STEP_SKIPPED, Lifecycle.combined(List.of(STEP_SKIPPED, STEP_SKIPPED)));
        assertEquals(STEP_SUCCEEDED, Lifecycle.combined(List.of(STEP_SUCCEEDED)));
    }
}
