package io.ironflow.teardown.actions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** A step event's message is bounded, whatever the failure it quotes: an event must always fit a Kafka record. */
class TeardownEventsTest {

    @Test
    void aLongMessageIsCutAndSaysHowMuchWasLeftOut() {
        String quoted = "y".repeat(2_000_000);
        String bounded = TeardownEvents.bounded(quoted);
        assertTrue(bounded.startsWith("y".repeat(TeardownEvents.MAX_MESSAGE) + "... ("), bounded.substring(0, 20));
        assertTrue(bounded.endsWith("(" + (2_000_000 - TeardownEvents.MAX_MESSAGE) + " more characters)"));
        String fits = "y".repeat(TeardownEvents.MAX_MESSAGE);
        assertEquals(fits, TeardownEvents.bounded(fits));
        assertNull(TeardownEvents.bounded(null));
    }
}
