package io.ironflow.deploy.kube;

import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorRequirement;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import java.util.List;
import java.util.Map;

/**
 * The eviction rule of the Kubernetes API server, computed from the pods as they are now (a real cluster's
 * disruption controller keeps {@code status.disruptionsAllowed}; the stand-in has no controller, so it counts):
 * evicting a healthy pod is allowed when the pods its budget selects stay at or above {@code minAvailable}, or
 * the unavailable ones stay within {@code maxUnavailable}. Percentages count against the selected pods.
 * Pure functions, no I/O.
 */
final class DisruptionBudgets {

    private DisruptionBudgets() {
    }

    /** Why evicting {@code pod} would violate {@code budget}, or null when it would not. */
    static String violation(PodDisruptionBudget budget, Pod pod, List<Pod> namespacePods) {
        LabelSelector selector = budget.getSpec().getSelector();
        List<Pod> selected = namespacePods.stream().filter(p -> matches(selector, labels(p))).toList();
        int expected = selected.size();
        int healthy = (int) selected.stream().filter(DisruptionBudgets::healthy).count();
        if (!healthy(pod)) {
            // An unhealthy pod does not lower the healthy count (Kubernetes' AlwaysAllow-like outcome for it).
            return null;
        }
        IntOrString minAvailable = budget.getSpec().getMinAvailable();
        IntOrString maxUnavailable = budget.getSpec().getMaxUnavailable();
        int desiredHealthy;
        if (minAvailable != null) {
            desiredHealthy = resolve(minAvailable, expected, true);
        } else if (maxUnavailable != null) {
            desiredHealthy = expected - resolve(maxUnavailable, expected, false);
        } else {
            return null;
        }
        if (healthy - 1 >= desiredHealthy) {
            return null;
        }
        return "The disruption budget " + budget.getMetadata().getName() + " needs " + desiredHealthy
                + " healthy pods and has " + healthy + " currently";
    }

    /** Whether {@code selector} selects a pod with {@code labels} (matchLabels and matchExpressions). */
    static boolean matches(LabelSelector selector, Map<String, String> labels) {
        if (selector == null) {
            return false;
        }
        if (selector.getMatchLabels() != null) {
            for (Map.Entry<String, String> wanted : selector.getMatchLabels().entrySet()) {
                if (!wanted.getValue().equals(labels.get(wanted.getKey()))) {
                    return false;
                }
            }
        }
        if (selector.getMatchExpressions() != null) {
            for (LabelSelectorRequirement requirement : selector.getMatchExpressions()) {
                if (!matches(requirement, labels)) {
                    return false;
                }
            }
        }
        return true;
    }

    private static boolean matches(LabelSelectorRequirement requirement, Map<String, String> labels) {
        String value = labels.get(requirement.getKey());
        List<String> values = requirement.getValues() == null ? List.of() : requirement.getValues();
        return switch (requirement.getOperator()) {
            case "In" -> value != null && values.contains(value);
            case "NotIn" -> value == null || !values.contains(value);
            case "Exists" -> labels.containsKey(requirement.getKey());
            case "DoesNotExist" -> !labels.containsKey(requirement.getKey());
            default -> false;
        };
    }

    /** Running and not being deleted (the stand-in has no readiness probes, so Running counts as Ready). */
    static boolean healthy(Pod pod) {
        return pod.getMetadata().getDeletionTimestamp() == null && pod.getStatus() != null
                && "Running".equals(pod.getStatus().getPhase());
    }

    static Map<String, String> labels(Pod pod) {
        Map<String, String> labels = pod.getMetadata().getLabels();
        return labels == null ? Map.of() : labels;
    }

    private static int resolve(IntOrString value, int total, boolean roundUp) {
        if (value.getIntVal() != null) {
            return value.getIntVal();
        }
        String text = value.getStrVal().trim();
        if (!text.endsWith("%")) {
            return Integer.parseInt(text);
        }
        double percent = Double.parseDouble(text.substring(0, text.length() - 1));
        double exact = total * percent / 100.0;
        return (int) (roundUp ? Math.ceil(exact) : Math.floor(exact));
    }
}
