package io.ironflow.teardown.kube;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.ironflow.teardown.status.StatusMessage;
import io.ironflow.teardown.status.StepFailure;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The Kubernetes Node side of a teardown, other than the drain: look a node up, clear its labels, have its
 * kubelet shut down, delete it. Labels are the operator's unless their key contains {@code kubernetes.io}
 * (Promenade's own rule for its label API): those the kubelet sets itself (hostname, arch, os) stay on a cleared
 * node and do not block its removal.
 */
@ApplicationScoped
public class ClusterNodes {

    /** The label that wakes the kubelet-shutdown DaemonSet (the spec's spelling). */
    public static final String DECOMMISSION_LABEL = "promenade-decomission";

    @Inject
    KubernetesClient client;

    @ConfigProperty(name = "ironflow.teardown.kubelet-shutdown-timeout", defaultValue = "120s")
    Duration kubeletShutdownTimeout;

    @ConfigProperty(name = "ironflow.teardown.label-retry-interval", defaultValue = "5s")
    Duration labelRetry;

    /** The node, or a 404 NotFound; a Kubernetes API that cannot be asked is a 500 with {@code failureReason}. */
    public Node require(String name, String failureReason) {
        Node node;
        try {
            node = client.nodes().withName(name).get();
        } catch (KubernetesClientException e) {
            throw new StepFailure(500, failureReason, "the Kubernetes API cannot be asked about node " + name + ": " + e.getMessage());
        }
        if (node == null) {
            throw StepFailure.notFound("node " + name + " is not in the Kubernetes cluster");
        }
        return node;
    }

    public static boolean operatorLabel(String key) {
        return !key.contains("kubernetes.io");
    }

    /** Removes the node's operator labels, retrying every 5 s within {@code timeout}; answers what was removed. */
    public List<StatusMessage> clearLabels(String name, Duration timeout) {
        Instant deadline = Instant.now().plus(timeout);
        while (true) {
            try {
                Map<String, String> removed = new TreeMap<>();
                client.nodes().withName(name).edit(n -> {
                    Map<String, String> labels = n.getMetadata().getLabels() == null ? Map.of() : n.getMetadata().getLabels();
                    labels.forEach((k, v) -> {
                        if (operatorLabel(k)) {
                            removed.put(k, v);
                        }
                    });
                    return new NodeBuilder(n).editMetadata().removeFromLabels(removed).endMetadata().build();
                });
                return removed.entrySet().stream().map(e -> StatusMessage.info(name, "removed label " + e.getKey() + "=" + e.getValue())).toList();
            } catch (KubernetesClientException e) {
                if (e.getCode() == 404) {
                    throw StepFailure.notFound("node " + name + " is not in the Kubernetes cluster");
                }
                if (Instant.now().plus(labelRetry).isAfter(deadline)) {
                    throw new StepFailure(500, "ClearLabelsError", "the labels of node " + name + " could not be removed within "
                            + timeout.toSeconds() + " s: " + e.getMessage(), List.of(StatusMessage.error(name, String.valueOf(e.getMessage()))));
                }
                sleep(labelRetry, "ClearLabelsError");
            }
        }
    }

    /** Labels the node for the kubelet-shutdown DaemonSet and waits until its kubelet stops reporting Ready. */
    public void shutdownKubelet(String name) {
        Instant deadline = Instant.now().plus(kubeletShutdownTimeout);
        try {
            client.nodes().withName(name).edit(n -> new NodeBuilder(n).editMetadata().addToLabels(DECOMMISSION_LABEL, "enabled").endMetadata().build());
            while (kubeletReporting(client.nodes().withName(name).get())) {
                if (Instant.now().isAfter(deadline)) {
                    throw new StepFailure(500, "ShutdownKubeletError", "the kubelet of node " + name + " still reports Ready "
                            + kubeletShutdownTimeout.toSeconds() + " s after it was labelled " + DECOMMISSION_LABEL + ": enabled",
                            List.of(StatusMessage.error(name, "kubelet still reporting")));
                }
                sleep(Duration.ofSeconds(1), "ShutdownKubeletError");
            }
        } catch (KubernetesClientException e) {
            throw new StepFailure(500, "ShutdownKubeletError", "the kubelet of node " + name + " could not be shut down: " + e.getMessage(),
                    List.of(StatusMessage.error(name, String.valueOf(e.getMessage()))));
        }
    }

    /** Whether the node's kubelet still posts Ready=True (a node that vanished does not). */
    static boolean kubeletReporting(Node node) {
        return node != null && node.getStatus() != null && node.getStatus().getConditions() != null
                && node.getStatus().getConditions().stream().anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus()));
    }

    /** 409 unless cordoned and without operator labels but {@code promenade-decomission}; then deletes the Node. */
    public void removeFromCluster(String name) {
        Node node = require(name, "DeleteNodeError");
        boolean cordoned = node.getSpec() != null && Boolean.TRUE.equals(node.getSpec().getUnschedulable());
        List<String> blocking = node.getMetadata().getLabels() == null ? List.of()
                : node.getMetadata().getLabels().keySet().stream()
                        .filter(k -> operatorLabel(k) && !k.equals(DECOMMISSION_LABEL)).sorted().toList();
        if (!cordoned || !blocking.isEmpty()) {
            String why = !cordoned ? "node " + name + " is not cordoned (drain it first)"
                    : "node " + name + " still has labels " + blocking + " (clear them first)";
            throw new StepFailure(409, "Conflict", why, List.of(StatusMessage.error(name, why)));
        }
        try {
            client.nodes().withName(name).delete();
        } catch (KubernetesClientException e) {
            throw new StepFailure(500, "DeleteNodeError", "node " + name + " could not be deleted: " + e.getMessage(),
                    List.of(StatusMessage.error(name, String.valueOf(e.getMessage()))));
        }
    }

    private static void sleep(Duration duration, String reason) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StepFailure(500, reason, "interrupted");
        }
    }
}
