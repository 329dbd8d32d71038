package io.ironflow.schemas;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Optional;
import org.junit.jupiter.api.Test;

/** oslo's bool_from_string words, trimmed and in any case; anything else is no answer. */
class OsloBooleansTest {

    @Test
    void theWordsAndNothingElse() {
        for (String yes : new String[] {"1", "t", "true", "on", "y", "yes", " True ", "YES"}) {
            assertEquals(Optional.of(true), OsloBooleans.parse(yes), yes);
        }
        for (String no : new String[] {"0", "f", "false", "off", "n", "no", "\tFalse\n", "OFF"}) {
            assertEquals(Optional.of(false), OsloBooleans.parse(no), no);
        }
        for (String neither : new String[] {"", "2", "yes please", "null", "tru", "-1"}) {
            assertEquals(Optional.empty(), OsloBooleans.parse(neither), neither);
        }
    }
}
