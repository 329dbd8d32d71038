package io.ironflow.teardown.kube;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.ironflow.teardown.kube.DrainFilters.Action;
import org.junit.jupiter.api.Test;

/** kubectl drain's filters, flag by flag. */
class DrainFiltersTest {

    static final DrainFilters NONE = new DrainFilters(false, false, false);

    static PodBuilder pod(String ownerKind, String phase) {
        PodBuilder pod = new PodBuilder().withNewMetadata().withName("p").withNamespace("ns").endMetadata()
                .withNewSpec().endSpec().withNewStatus().withPhase(phase).endStatus();
        if (ownerKind != null) {
            pod.editMetadata().addNewOwnerReference().withKind(ownerKind).withName("owner").withController(true).endOwnerReference().endMetadata();
        }
        return pod;
    }

    static Action verdict(DrainFilters filters, Pod pod, boolean daemonSetExists) {
        return filters.apply(pod, (ns, name) -> daemonSetExists).action();
    }

    @Test
    void daemonSetPods() {
        Pod pod = pod("DaemonSet", "Running").build();
        assertEquals(Action.ERROR, verdict(NONE, pod, true));
        assertEquals(Action.SKIP, verdict(new DrainFilters(false, true, false), pod, true));
        assertEquals(Action.ERROR, verdict(new DrainFilters(false, true, false), pod, false), "an orphan needs force");
        assertEquals(Action.DELETE, verdict(new DrainFilters(true, true, false), pod, false));
        assertEquals(Action.DELETE, verdict(NONE, pod("DaemonSet", "Succeeded").build(), true), "finished pods go");
    }

    @Test
    void mirrorPodsAreSkippedSilently() {
        Pod pod = pod(null, "Running").editMetadata().addToAnnotations("kubernetes.io/config.mirror", "x").endMetadata().build();
        assertEquals(Action.SKIP, verdict(NONE, pod, true));
        assertEquals(null, NONE.apply(pod, (a, b) -> true).message());
    }

    @Test
    void emptyDirDataNeedsItsFlag() {
        Pod pod = pod("ReplicaSet", "Running").editSpec().addNewVolume().withName("v").withNewEmptyDir().endEmptyDir().endVolume().endSpec().build();
        assertEquals(Action.ERROR, verdict(NONE, pod, true));
        assertEquals(Action.DELETE, verdict(new DrainFilters(false, false, true), pod, true));
    }

    @Test
    void unmanagedPodsNeedForce() {
        Pod pod = pod(null, "Running").build();
        assertEquals(Action.ERROR, verdict(NONE, pod, true));
        assertEquals(Action.DELETE, verdict(new DrainFilters(true, false, false), pod, true));
        assertEquals(Action.DELETE, verdict(NONE, pod(null, "Failed").build(), true));
        assertEquals(Action.DELETE, verdict(NONE, pod("ReplicaSet", "Running").build(), true));
    }

    @Test
    void airshipFlagsDeleteEverythingButLiveDaemonSetAndMirrorPods() {
        assertEquals(Action.SKIP, verdict(DrainFilters.AIRSHIP, pod("DaemonSet", "Running").build(), true));
        assertEquals(Action.DELETE, verdict(DrainFilters.AIRSHIP, pod(null, "Running").build(), true));
    }
}
