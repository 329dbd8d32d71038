package io.ironflow.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.ironflow.api.errors.ApiError;
import org.junit.jupiter.api.Test;

/** Ironic's validate_limit: absent is the maximum, any larger number is cut to it, below 1 or not a number is 400. */
class QueryLimitTest {

    @Test
    void largeLimitsAreCutAndBadOnesRefused() {
        assertEquals(QueryLimit.MAX, QueryLimit.parse(null));
        assertEquals(2, QueryLimit.parse("2"));
        assertEquals(QueryLimit.MAX, QueryLimit.parse("1001"));
        assertEquals(QueryLimit.MAX, QueryLimit.parse("99999999999999999999"), "past an int, as Python's int");
        assertEquals("Limit must be positive", assertThrows(ApiError.class, () -> QueryLimit.parse("0")).getMessage());
        assertEquals("Limit must be positive", assertThrows(ApiError.class, () -> QueryLimit.parse("-99999999999999999999")).getMessage());
        for (String bad : new String[] {"", "ten", "1.5", "0x10", "1e3"}) {
            assertEquals(400, assertThrows(ApiError.class, () -> QueryLimit.parse(bad)).status(), bad);
        }
    }
}
