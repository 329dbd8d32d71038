package io.ironflow.teardown.revisions;

import java.util.List;

/**
 * Shipyard issue 16's intermediate-commit guard: a site action on revision {@code used} is refused when committed
 * revisions with no site-action tag lie between the last site action's revision (0 when no revision has a tag)
 * and {@code used}. Pure.
 */
public final class SiteActionGuard {

    private SiteActionGuard() {
    }

    /** Why the action must not run, or null. */
    public static String refusal(int used, int lastSiteAction, List<Integer> untaggedBetween) {
        if (untaggedBetween.isEmpty()) {
            return null;
        }
        return "committed revisions " + untaggedBetween + " lie between the last site action's revision (" + lastSiteAction
                + ") and revision " + used + " without a site action; set allow-intermediate-commits=true to go on anyway";
    }
}
