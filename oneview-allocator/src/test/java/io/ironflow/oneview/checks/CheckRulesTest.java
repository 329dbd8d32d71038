package io.ironflow.oneview.checks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import io.ironflow.oneview.allocation.Ownership;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The three periodic checks' rules, state by state, and the nodes they never touch. */
class CheckRulesTest {

    private static final String SH = "/rest/server-hardware/1";
    private static final String IN_USE = CheckRules.IN_USE_BY_ONEVIEW;

    private static OneViewNode node(String state, boolean maintenance, String reason, boolean retired, String oneviewError) {
        return new OneViewNode("n1", state, maintenance, reason, retired, null, SH, null, true, oneviewError, null, null);
    }

    @Test
    void takenByOneViewWhileAvailable() {
        assertEquals(List.of(new CheckRules.Maintenance(true, IN_USE), new CheckRules.Verb("manage")),
                CheckRules.decide(node("available", false, null, false, null), () -> Ownership.ONEVIEW));
        assertEquals(List.of(), CheckRules.decide(node("available", false, null, false, null), () -> Ownership.FREE));
        assertEquals(List.of(), CheckRules.decide(node("available", true, "operator", false, null), () -> Ownership.ONEVIEW));
    }

    @Test
    void freedByOneViewOnlyForNodesItTook() {
        assertEquals(List.of(new CheckRules.Maintenance(false, null), new CheckRules.Verb("provide")),
                CheckRules.decide(node("manageable", true, IN_USE, false, null), () -> Ownership.FREE));
        assertEquals(List.of(), CheckRules.decide(node("manageable", true, IN_USE, false, null), () -> Ownership.ONEVIEW));
        assertEquals(List.of(), CheckRules.decide(node("manageable", true, "disk swap", false, null), () -> Ownership.FREE));
        assertEquals(List.of(), CheckRules.decide(node("manageable", false, null, false, null), () -> Ownership.FREE));
    }

    @Test
    void takenOnCleanFailureOnlyWhenTheConductorMarkedAnAllocationError() {
        assertEquals(List.of(new CheckRules.Maintenance(true, IN_USE), new CheckRules.Verb("manage")),
                CheckRules.decide(node("clean failed", false, null, false, CheckRules.ALLOCATION_ERROR),
                        () -> fail("the rule needs no OneView call")));
        assertEquals(List.of(), CheckRules.decide(node("clean failed", false, null, false, null), () -> Ownership.ONEVIEW),
                "another clean failure, even with OneView holding the hardware now");
        // The fact, not last_error's wording, decides: a message that merely mentions OneView does not count.
        OneViewNode wordsOnly = new OneViewNode("n1", "clean failed", false, null, false,
                "Node n1 is in use by OneView: server hardware x", SH, null, true, null, null, null);
        assertEquals(List.of(), CheckRules.decide(wordsOnly, () -> Ownership.ONEVIEW));
    }

    @Test
    void onlyStableStatesOfDynamicBoundNodesAreObserved() {
        for (String state : List.of("enroll", "manageable", "available", "active", "deploy failed", "clean failed")) {
            assertEquals(true, CheckRules.observable(node(state, false, null, false, null)), state);
        }
        for (String state : List.of("deploying", "wait call-back", "cleaning", "clean wait", "verifying", "deploy wait")) {
            assertEquals(false, CheckRules.observable(node(state, false, null, false, null)), state);
        }
        assertEquals(false, CheckRules.observable(node("available", false, null, true, null)), "retired");
        assertEquals(false, CheckRules.observable(new OneViewNode("n1", "available", false, null, false, null, SH, null, false,
                null, null, null)), "pre-allocated");
    }

    @Test
    void retiredPreAllocatedAndUnboundNodesAreNeverTouched() {
        assertEquals(List.of(), CheckRules.decide(node("available", false, null, true, null), () -> fail("retired: not asked")));
        assertEquals(List.of(), CheckRules.decide(new OneViewNode("n1", "available", false, null, false, null, SH, null, false, null, null, null),
                () -> fail("pre-allocated: not asked")));
        assertEquals(List.of(), CheckRules.decide(new OneViewNode("n1", "available", false, null, false, null, null, null, true, null, null, null),
                () -> fail("no hardware: not asked")));
        assertEquals(List.of(), CheckRules.decide(node("active", false, null, false, null), () -> fail("active: not asked")));
    }
}
