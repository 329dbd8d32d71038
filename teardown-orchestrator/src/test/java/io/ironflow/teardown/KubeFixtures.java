package io.ironflow.teardown;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.apps.DaemonSetBuilder;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudgetBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.Map;

/** Arranges the stand-in cluster as an operator would: nodes as a kubelet registers them, pods, budgets. */
final class KubeFixtures {

    private KubeFixtures() {
    }

    static KubernetesClient k8s() {
        return TeardownPeers.kubernetes();
    }

    /** A Ready node with the kubelet's own labels and two operator labels. */
    static Node node(String name) {
        k8s().nodes().withName(name).delete(); // a node of an earlier test goes, as a re-registering kubelet's would
        return k8s().nodes().resource(new NodeBuilder().withNewMetadata().withName(name)
                .addToLabels("kubernetes.io/hostname", name).addToLabels("kubernetes.io/os", "linux")
                .addToLabels("openstack-control-plane", "enabled").addToLabels("ceph-osd", "enabled").endMetadata()
                .withNewStatus().addNewCondition().withType("Ready").withStatus("True").endCondition().endStatus().build()).create();
    }

    static Pod pod(String ns, String name, String node, Map<String, String> labels, String ownerKind, String ownerName) {
        PodBuilder pod = new PodBuilder().withNewMetadata().withName(name).withNamespace(ns).addToLabels(labels).endMetadata()
                .withNewSpec().withNodeName(node).addNewContainer().withName("c").withImage("busybox").endContainer().endSpec()
                .withNewStatus().withPhase("Running").endStatus();
        if (ownerKind != null) {
            pod.editMetadata().addNewOwnerReference().withApiVersion("apps/v1").withKind(ownerKind).withName(ownerName)
                    .withUid(ownerName + "-uid").withController(true).endOwnerReference().endMetadata();
        }
        return k8s().pods().inNamespace(ns).resource(pod.build()).create();
    }

    static void daemonSet(String ns, String name) {
        k8s().apps().daemonSets().inNamespace(ns).resource(new DaemonSetBuilder().withNewMetadata().withName(name)
                .withNamespace(ns).endMetadata().withNewSpec().withNewSelector().addToMatchLabels("ds", name).endSelector()
                .withNewTemplate().withNewMetadata().addToLabels("ds", name).endMetadata().withNewSpec().addNewContainer()
                .withName("c").withImage("busybox").endContainer().endSpec().endTemplate().endSpec().build()).create();
    }

    static void budget(String ns, String name, String app, int minAvailable) {
        k8s().policy().v1().podDisruptionBudget().inNamespace(ns).resource(new PodDisruptionBudgetBuilder()
                .withNewMetadata().withName(name).withNamespace(ns).endMetadata().withNewSpec()
                .withNewSelector().addToMatchLabels("app", app).endSelector().withNewMinAvailable(minAvailable).endSpec().build()).create();
    }

    static int podsOn(String node) {
        return k8s().pods().inAnyNamespace().withField("spec.nodeName", node).list().getItems().size();
    }
}
