package io.ironflow.teardown.steps;

import io.ironflow.teardown.etcd.EtcdTeardown;
import io.ironflow.teardown.kube.ClusterNodes;
import io.ironflow.teardown.kube.NodeDrainer;
import io.ironflow.teardown.status.AirshipStatus;
import io.ironflow.teardown.status.StatusMessage;
import io.ironflow.teardown.status.StepFailure;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.jboss.logging.Logger;

/**
 * The spec's Promenade node steps, each usable alone and each idempotent (a step run again on a node where it
 * already happened succeeds again), answering an Airship status or throwing a {@link StepFailure} that carries
 * one. Parameters are checked by the caller before this looks the node up.
 */
@ApplicationScoped
public class NodeSteps {

    private static final Logger LOG = Logger.getLogger(NodeSteps.class);

    @Inject
    ClusterNodes nodes;

    @Inject
    NodeDrainer drainer;

    @Inject
    EtcdTeardown etcd;

    public AirshipStatus drain(String node, long timeout, long gracePeriod) {
        nodes.require(node, "DrainNodeError");
        List<StatusMessage> notes = drainer.drain(node, Duration.ofSeconds(timeout), gracePeriod);
        return AirshipStatus.success("node " + node + " drained", notes);
    }

    public AirshipStatus clearLabels(String node, long timeout) {
        nodes.require(node, "ClearLabelsError");
        return AirshipStatus.success("labels of node " + node + " cleared", nodes.clearLabels(node, Duration.ofSeconds(timeout)));
    }

    public AirshipStatus removeEtcd(String node, long timeout, DesignRef design) {
        nodes.require(node, "RemoveEtcdError");
        return AirshipStatus.success("etcd members of node " + node + " removed",
                etcd.removeMembersOf(node, Duration.ofSeconds(timeout)));
    }

    public AirshipStatus etcdHealth(DesignRef design) {
        return AirshipStatus.success("etcd health of " + design.href(), etcd.healthStatuses());
    }

    public AirshipStatus shutdownKubelet(String node) {
        nodes.require(node, "ShutdownKubeletError");
        nodes.shutdownKubelet(node);
        return AirshipStatus.success("kubelet of node " + node + " shut down", List.of());
    }

    public AirshipStatus removeFromCluster(String node) {
        nodes.removeFromCluster(node);
        return AirshipStatus.success("node " + node + " removed from the Kubernetes cluster", List.of());
    }

    /**
     * Drain, clear labels, remove etcd, wait for etcd to be stable without the node, shut the kubelet down. The
     * first failing step ends it with 500 DisassociateStepFailure whose details give every step's result (a 4xx
     * of a step is a 500 here, as the spec says), except the kubelet's: it may fail on a node in disarray, and the
     * destroy that follows stops the kubelet anyway, so its failure is reported and does not fail the whole.
     * {@code stillHeld} runs before each part and throws when the caller no longer holds the node (its claim or its
     * action's lease lapsed and was taken over): a part already done is idempotent, one not started stays undone.
     */
    public AirshipStatus decommission(String node, DecommissionOptions options, DesignRef design, Runnable stillHeld) {
        nodes.require(node, "DisassociateStepFailure");
        List<StatusMessage> results = new ArrayList<>();
        run(results, "drain", stillHeld, () -> drain(node, options.drainTimeout(), options.drainGracePeriod()));
        run(results, "clear-labels", stillHeld, () -> clearLabels(node, options.clearLabelsTimeout()));
        run(results, "remove-etcd", stillHeld, () -> removeEtcd(node, options.removeEtcdTimeout(), design));
        run(results, "etcd-ready", stillHeld, () -> AirshipStatus.success("etcd stable",
                etcd.awaitStable(node, Duration.ofSeconds(options.etcdReadyTimeout()))));
        held(results, "shutdown-kubelet", stillHeld);
        try {
            shutdownKubelet(node);
            results.add(StatusMessage.info("shutdown-kubelet", "kubelet of node " + node + " shut down"));
        } catch (StepFailure e) {
            LOG.warnf("decommission of %s: kubelet shutdown failed, going on (destroy stops it): %s", node, e.getMessage());
            results.add(StatusMessage.info("shutdown-kubelet", "failed, not blocking (destroy stops the kubelet): "
                    + e.status().message()));
        }
        return AirshipStatus.success("node " + node + " decommissioned", results);
    }

    private void run(List<StatusMessage> results, String step, Runnable stillHeld, java.util.function.Supplier<AirshipStatus> body) {
        held(results, step, stillHeld);
        try {
            AirshipStatus status = body.get();
            results.add(StatusMessage.info(step, status.message()));
        } catch (StepFailure e) {
            throw stopped(results, step, "at", e);
        }
    }

    /** Runs {@code stillHeld} before {@code step}: a node no longer held stops the decommission before it. */
    private static void held(List<StatusMessage> results, String step, Runnable stillHeld) {
        try {
            stillHeld.run();
        } catch (StepFailure e) {
            throw stopped(results, step, "before", e);
        }
    }

    private static StepFailure stopped(List<StatusMessage> results, String step, String where, StepFailure e) {
        results.add(StatusMessage.error(step, e.status().code() + " " + e.status().reason() + ": " + e.status().message()));
        if (e.status().details() != null) {
            results.addAll(e.status().details().messageList());
        }
        return new StepFailure(500, "DisassociateStepFailure", "decommission stopped " + where + " " + step + ": "
                + e.status().message(), results);
    }
}
