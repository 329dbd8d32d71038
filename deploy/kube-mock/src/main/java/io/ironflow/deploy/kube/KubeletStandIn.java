package io.ironflow.deploy.kube;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeCondition;
import io.fabric8.kubernetes.api.model.NodeConditionBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The stand-in for the teardown spec's kubelet-shutdown DaemonSet: once a Node carries the label
 * {@code promenade-decomission: enabled} (the spec's spelling), its kubelet "stops" and, as the node lifecycle
 * controller does for a kubelet that stopped posting status, its {@code Ready} condition turns {@code Unknown}
 * with reason {@code NodeStatusUnknown}. Checked every {@code period}; talks to the server through its own API.
 */
final class KubeletStandIn implements AutoCloseable {

    static final String LABEL = "promenade-decomission";
    private static final Logger LOG = Logger.getLogger(KubeletStandIn.class.getName());

    private final KubernetesClient client;
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread thread = new Thread(r, "kubelet-stand-in");
        thread.setDaemon(true);
        return thread;
    });

    KubeletStandIn(KubernetesClient client, long periodMillis) {
        this.client = client;
        timer.scheduleWithFixedDelay(this::stopLabelledKubelets, periodMillis, periodMillis, TimeUnit.MILLISECONDS);
    }

    private void stopLabelledKubelets() {
        try {
            for (Node node : client.nodes().withLabel(LABEL, "enabled").list().getItems()) {
                if (stillReporting(node)) {
                    client.nodes().withName(node.getMetadata().getName()).editStatus(this::notReporting);
                    LOG.info(() -> "kubelet of " + node.getMetadata().getName() + " stopped (" + LABEL + ": enabled)");
                }
            }
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "kubelet stand-in: " + e.getMessage(), e);
        }
    }

    private static boolean stillReporting(Node node) {
        return node.getStatus() == null || node.getStatus().getConditions() == null
                || node.getStatus().getConditions().stream()
                        .noneMatch(c -> "Ready".equals(c.getType()) && "Unknown".equals(c.getStatus()));
    }

    private Node notReporting(Node node) {
        String now = Instant.now().toString();
        List<NodeCondition> conditions = new ArrayList<>();
        if (node.getStatus() != null && node.getStatus().getConditions() != null) {
            node.getStatus().getConditions().stream().filter(c -> !"Ready".equals(c.getType())).forEach(conditions::add);
        }
        conditions.add(new NodeConditionBuilder().withType("Ready").withStatus("Unknown")
                .withReason("NodeStatusUnknown").withMessage("Kubelet stopped posting node status.")
                .withLastTransitionTime(now).withLastHeartbeatTime(now).build());
        if (node.getStatus() == null) {
            node.setStatus(new io.fabric8.kubernetes.api.model.NodeStatus());
        }
        node.getStatus().setConditions(conditions);
        return node;
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
