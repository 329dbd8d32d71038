package io.ironflow.conductor.intents;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.ironflow.conductor.domain.Rejection;
import io.ironflow.conductor.intents.Outcome.RowChange;
import org.junit.jupiter.api.Test;

/**
 * An {@link Outcome} says what its answer's statement does to the node's row: nothing unless the handler's answer
 * was accepted, whatever the processor asks; a DELETE's outcome deletes from the start, and keeps saying so.
 */
class OutcomeTest {

    @Test
    void aRefusedOutcomeChangesNoRow() {
        Outcome refused = Outcome.rejected(new Rejection(409, "busy"));
        assertEquals(RowChange.NONE, refused.rowChange());
        for (RowChange change : new RowChange[] {RowChange.INSERT, RowChange.UPDATE, RowChange.DELETE}) {
            assertThrows(IllegalArgumentException.class, () -> refused.changing(change), change.name());
        }
    }

    @Test
    void anAcceptedOutcomeChangesTheRowOnlyWhenTold() {
        assertEquals(RowChange.NONE, Outcome.done(200, null).rowChange());
        assertEquals(RowChange.NONE, Outcome.parked(null, 5L).rowChange());
        assertEquals(RowChange.UPDATE, Outcome.done(200, null).changing(RowChange.UPDATE).rowChange());
        assertEquals(RowChange.DELETE, Outcome.deleted().rowChange());
        assertEquals(RowChange.DELETE, Outcome.deleted().withNode(null).rowChange(), "withNode keeps the change");
    }
}
