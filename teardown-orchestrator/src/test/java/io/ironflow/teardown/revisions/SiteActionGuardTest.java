package io.ironflow.teardown.revisions;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Shipyard issue 16's guard: untagged committed revisions between the last site action and the one used. */
class SiteActionGuardTest {

    @Test
    void intermediateCommitsAreRefused() {
        assertNull(SiteActionGuard.refusal(3, 2, List.of()));
        assertNotNull(SiteActionGuard.refusal(3, 0, List.of(1, 2)), "revision 0 when no revision has a tag");
    }
}
