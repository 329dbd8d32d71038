package io.ironflow.teardown.kube;

import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.function.BiPredicate;

/**
 * kubectl drain's pod filters, in kubectl's order ({@code k8s.io/kubectl/pkg/drain/filters.go}); a pod stops at the
 * first filter that does not say delete:
 * <ol>
 * <li>DaemonSet pods: finished ones are deleted; with {@code ignoreDaemonsets} a pod of a live DaemonSet is
 * skipped (the DaemonSet would recreate it), otherwise it is an error; an orphan (its DaemonSet gone) needs
 * {@code force};</li>
 * <li>mirror (static) pods: skipped silently, the kubelet owns them;</li>
 * <li>pods with {@code emptyDir} data, unless finished: deleted with {@code deleteEmptyDirData}, else an error;</li>
 * <li>pods with no controller, unless finished: deleted with {@code force}, else an error.</li>
 * </ol>
 * Airship drains with {@code --force --ignore-daemonsets --delete-local-data}: {@link #AIRSHIP}. Pure.
 */
public record DrainFilters(boolean force, boolean ignoreDaemonsets, boolean deleteEmptyDirData) {

    public static final DrainFilters AIRSHIP = new DrainFilters(true, true, true);
    static final String MIRROR_ANNOTATION = "kubernetes.io/config.mirror";

    /** What a drain does with one pod. */
    public enum Action { DELETE, SKIP, ERROR }

    /** The verdict on one pod, with kubectl's warning or error text (null when there is nothing to say). */
    public record Verdict(Action action, String message) {
    }

    /**
     * The verdict on {@code pod}; {@code daemonSetExists} answers whether the DaemonSet (namespace, name) still
     * exists.
     */
    public Verdict apply(Pod pod, BiPredicate<String, String> daemonSetExists) {
        String warning = null;
        OwnerReference controller = controllerOf(pod);
        boolean finished = finished(pod);
        if (controller != null && "DaemonSet".equals(controller.getKind()) && !finished) {
            if (!daemonSetExists.test(pod.getMetadata().getNamespace(), controller.getName())) {
                if (!force) {
                    return new Verdict(Action.ERROR, "pod's DaemonSet " + controller.getName() + " is missing (use force)");
                }
                warning = "deleting pod of missing DaemonSet " + controller.getName();
            } else if (!ignoreDaemonsets) {
                return new Verdict(Action.ERROR, "cannot delete DaemonSet-managed pod (use ignore-daemonsets)");
            } else {
                return new Verdict(Action.SKIP, "ignoring DaemonSet-managed pod");
            }
        }
        if (pod.getMetadata().getAnnotations() != null && pod.getMetadata().getAnnotations().containsKey(MIRROR_ANNOTATION)) {
            return new Verdict(Action.SKIP, null);
        }
        if (!finished && hasEmptyDir(pod)) {
            if (!deleteEmptyDirData) {
                return new Verdict(Action.ERROR, "cannot delete pod with local storage (use delete-emptydir-data)");
            }
            warning = join(warning, "deleting pod with local storage (emptyDir data is lost)");
        }
        if (!finished && controller == null) {
            if (!force) {
                return new Verdict(Action.ERROR, "cannot delete pod not managed by a controller (use force)");
            }
            warning = join(warning, "deleting pod not managed by a controller");
        }
        return new Verdict(Action.DELETE, warning);
    }

    static OwnerReference controllerOf(Pod pod) {
        if (pod.getMetadata().getOwnerReferences() == null) {
            return null;
        }
        return pod.getMetadata().getOwnerReferences().stream()
                .filter(o -> Boolean.TRUE.equals(o.getController())).findFirst().orElse(null);
    }

    static boolean finished(Pod pod) {
        String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
        return "Succeeded".equals(phase) || "Failed".equals(phase);
    }

    private static boolean hasEmptyDir(Pod pod) {
        return pod.getSpec() != null && pod.getSpec().getVolumes() != null
                && pod.getSpec().getVolumes().stream().anyMatch(v -> v.getEmptyDir() != null);
    }

    private static String join(String a, String b) {
        return a == null ? b : a + "; " + b;
    }
}
