package io.ironflow.teardown.actions;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/** One action as stored: what was asked, by whom, where it stands, and its steps in order. */
public record Action(String id, String name, Map<String, Object> parameters, String user, String contextMarker,
        Instant createdAt, String lifecycle, boolean pauseRequested, boolean stopRequested, Instant updatedAt,
        List<Step> steps) {

    /**
     * The nodes the action works on: those of its per-node steps, which are the nodes it claimed at creation
     * (deploy_site: none). Never parsed again from its parameters, so a run cannot fail on what was stored.
     */
    public List<String> nodes() {
        return steps.stream().map(Step::node).filter(java.util.Objects::nonNull).distinct().toList();
    }

    /** One step of an action. {@code node} is null for an action-wide step. */
    public record Step(int seq, String node, String step, String status, Instant startedAt, Instant finishedAt,
            String message) {
    }
}
