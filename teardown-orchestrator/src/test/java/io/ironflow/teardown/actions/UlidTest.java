package io.ironflow.teardown.actions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;

/** ULIDs: 26 Crockford base32 characters, the time first, so they sort by creation. */
class UlidTest {

    @Test
    void timeComesFirstInCrockfordBase32() {
        assertEquals("0000000000", Ulid.of(0, new Random(1)).substring(0, 10));
        assertEquals("01ARYZ6S41", Ulid.of(1469918176385L, new Random(1)).substring(0, 10), "the ulid reference's encodeTime example");
        assertTrue(Ulid.valid(Ulid.next()));
        assertTrue(Ulid.of(1000, new Random(1)).compareTo(Ulid.of(1001, new Random(2))) < 0);
        assertFalse(Ulid.valid("01ARZ3NDEKTSV4RRFFQ69G5FAU"), "U is not in the alphabet");
        assertFalse(Ulid.valid("short"));
    }
}
