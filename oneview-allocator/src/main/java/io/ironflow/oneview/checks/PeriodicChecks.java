package io.ironflow.oneview.checks;

import io.ironflow.oneview.allocation.Allocator;
import io.ironflow.oneview.messaging.NodeIntents;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.common.annotation.Identifier;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import java.util.Objects;
import org.jboss.logging.Logger;

/**
 * Runs {@link CheckRules} over this instance's nodes every {@code ironflow.oneview.periodic-check-interval}
 * (the spec's {@code [oneview] periodic_check_interval}, 300 s; {@code IRONFLOW_ONEVIEW_PERIODIC_CHECK_INTERVAL}
 * sets it). Each observable node's hardware is read once per run; when the profile on it is not the one the
 * node's snapshot last recorded, or its power is not the power_state the snapshot reports, the observation is
 * sent to the conductor ({@code ObserveServerHardware}), which keeps the profile for validation (a node in use by
 * OneView fails {@code validate}) and syncs power_state with the power (Ironic's {@code _sync_power_states}), so
 * what Ironflow reports converges to OneView within one interval. Every action is an intent to the
 * conductor. A OneView failure for one node is logged and the node skipped until the next run; a run never
 * overlaps the previous one.
 */
@ApplicationScoped
public class PeriodicChecks {

    private static final Logger LOG = Logger.getLogger(PeriodicChecks.class);

    private final NodeView view;
    private final Allocator allocator;
    private final NodeIntents intents;

    PeriodicChecks(@Identifier("node-state-rebalance") NodeView view, Allocator allocator, NodeIntents intents) {
        this.view = view;
        this.allocator = allocator;
        this.intents = intents;
    }

    @Scheduled(every = "${ironflow.oneview.periodic-check-interval}", delayed = "5s",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP,
            skipExecutionIf = Scheduled.ApplicationNotRunning.class)
    void run() {
        for (OneViewNode node : view.nodes()) {
            if (!CheckRules.observable(node)) {
                continue;
            }
            try {
                Allocator.Observation seen = allocator.observe(node.uuid(), node.serverHardwareUri(),
                        node.appliedServerProfileUri(), node.observedProfile());
                if (!Objects.equals(seen.profileUri(), node.observedProfile())
                        || (seen.powerState() != null && !seen.powerState().equals(node.powerState()))) {
                    intents.observed(node.uuid(), node.serverHardwareUri(), seen.profileUri(), seen.profileName(), seen.powerState());
                }
                List<CheckRules.Action> actions = CheckRules.decide(node, seen::ownership);
                if (!actions.isEmpty()) {
                    LOG.infof("node %s (%s): %s", node.uuid(), node.provisionState(), actions);
                }
                for (CheckRules.Action action : actions) {
                    if (action instanceof CheckRules.Maintenance m) {
                        intents.maintenance(node.uuid(), m.on(), m.reason());
                    } else if (action instanceof CheckRules.Verb v) {
                        intents.provision(node.uuid(), v.target());
                    }
                }
            } catch (RuntimeException e) {
                LOG.warnf("periodic OneView check of node %s skipped until the next run: %s", node.uuid(), e.toString());
            }
        }
    }
}
