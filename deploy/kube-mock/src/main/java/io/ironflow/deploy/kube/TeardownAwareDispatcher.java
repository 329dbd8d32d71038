package io.ironflow.deploy.kube;

import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodList;
import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.api.model.StatusCauseBuilder;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudgetList;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * fabric8's CRUD dispatcher (every resource stored, listed, patched, watched) plus the two pieces of the real API
 * server a node drain needs and the mock lacks:
 * <ul>
 * <li>the pod {@code eviction} subresource: the pod is deleted (201, a Status), or 429 TooManyRequests while the
 * one PodDisruptionBudget of its namespace that selects it would be violated, 500 when several select it (as
 * the API server answers), 404 when the pod does not exist, 403 with the cause {@code NamespaceTerminating} when
 * its namespace is being deleted (the NamespaceLifecycle admission plugin refuses anything new there);</li>
 * <li>the {@code spec.nodeName} field selector on pod lists (fabric8's CRUD mode ignores field selectors it
 * does not index, which would list every pod of the cluster as on the node).</li>
 * </ul>
 * Evictions are serialised, so two concurrent ones cannot both spend a budget's last disruption.
 */
final class TeardownAwareDispatcher extends KubernetesCrudDispatcher {

    private static final Pattern EVICTION = Pattern.compile("/api/v1/namespaces/([^/]+)/pods/([^/?]+)/eviction/?(\\?.*)?");
    private static final Pattern POD_LIST = Pattern.compile("(/api/v1(?:/namespaces/[^/]+)?/pods)\\?(.*)");

    private final Object evictions = new Object();

    @Override
    public MockResponse dispatch(RecordedRequest request) {
        String path = request.getPath();
        Matcher eviction = EVICTION.matcher(path);
        if ("POST".equals(request.getMethod()) && eviction.matches()) {
            synchronized (evictions) {
                return evict(eviction.group(1), eviction.group(2));
            }
        }
        Matcher list = POD_LIST.matcher(path);
        if ("GET".equals(request.getMethod()) && list.matches()) {
            MockResponse filtered = podsOnNode(list.group(1), list.group(2));
            if (filtered != null) {
                return filtered;
            }
        }
        return super.dispatch(request);
    }

    private MockResponse evict(String namespace, String name) {
        MockResponse found = handleGet("/api/v1/namespaces/" + namespace + "/pods/" + name);
        if (found.code() != 200) {
            return status(404, "NotFound", "pods \"" + name + "\" not found", null);
        }
        Pod pod = Serialization.unmarshal(found.getBody().readUtf8(), Pod.class);
        MockResponse space = handleGet("/api/v1/namespaces/" + namespace);
        if (space.code() == 200) {
            Namespace ns = Serialization.unmarshal(space.getBody().readUtf8(), Namespace.class);
            if (ns.getMetadata().getDeletionTimestamp() != null
                    || (ns.getStatus() != null && "Terminating".equals(ns.getStatus().getPhase()))) {
                // NamespaceLifecycle admission: nothing new (an Eviction included) in a namespace being deleted
                return status(403, "Forbidden", "pods \"" + name + "\" is forbidden: unable to create new content in"
                        + " namespace " + namespace + " because it is being terminated", "NamespaceTerminating",
                        "namespace " + namespace + " is being terminated");
            }
        }
        List<Pod> namespacePods = items(handleGet("/api/v1/namespaces/" + namespace + "/pods"), PodList.class);
        List<PodDisruptionBudget> budgets = new ArrayList<>();
        for (PodDisruptionBudget budget : items(handleGet("/apis/policy/v1/namespaces/" + namespace + "/poddisruptionbudgets"),
                PodDisruptionBudgetList.class)) {
            if (budget.getSpec() != null && DisruptionBudgets.matches(budget.getSpec().getSelector(), DisruptionBudgets.labels(pod))) {
                budgets.add(budget);
            }
        }
        if (budgets.size() > 1) {
            return status(500, "InternalError", "This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.", null);
        }
        if (budgets.size() == 1) {
            String violation = DisruptionBudgets.violation(budgets.get(0), pod, namespacePods);
            if (violation != null) {
                return status(429, "TooManyRequests", "Cannot evict pod as it would violate the pod's disruption budget.", violation);
            }
        }
        MockResponse deleted = handleDelete("/api/v1/namespaces/" + namespace + "/pods/" + name);
        if (deleted.code() >= 300) {
            return deleted;
        }
        return status(201, null, null, null);
    }

    /** The pod list with a {@code spec.nodeName=} field selector applied, or null when there is none. */
    private MockResponse podsOnNode(String base, String query) {
        List<String> kept = new ArrayList<>();
        String nodeName = null;
        for (String parameter : query.split("&")) {
            String decoded = URLDecoder.decode(parameter, StandardCharsets.UTF_8);
            if (decoded.startsWith("fieldSelector=")) {
                List<String> others = new ArrayList<>();
                for (String requirement : decoded.substring("fieldSelector=".length()).split(",")) {
                    if (requirement.startsWith("spec.nodeName=")) {
                        nodeName = requirement.substring("spec.nodeName=".length());
                    } else if (!requirement.isBlank()) {
                        others.add(requirement);
                    }
                }
                if (!others.isEmpty()) {
                    kept.add("fieldSelector=" + String.join(",", others));
                }
            } else if (decoded.startsWith("watch=true")) {
                return null;
            } else {
                kept.add(parameter);
            }
        }
        if (nodeName == null) {
            return null;
        }
        MockResponse all = handleGet(kept.isEmpty() ? base : base + "?" + String.join("&", kept));
        if (all.code() != 200) {
            return all;
        }
        PodList pods = Serialization.unmarshal(all.getBody().readUtf8(), PodList.class);
        String node = nodeName;
        pods.setItems(pods.getItems().stream()
                .filter(p -> p.getSpec() != null && node.equals(p.getSpec().getNodeName())).toList());
        return new MockResponse().setResponseCode(200).setHeader("Content-Type", "application/json")
                .setBody(Serialization.asJson(pods));
    }

    private static <T extends io.fabric8.kubernetes.api.model.HasMetadata> List<T> items(MockResponse response, Class<? extends io.fabric8.kubernetes.api.model.KubernetesResourceList<T>> type) {
        if (response.code() != 200) {
            return List.of();
        }
        return Serialization.unmarshal(response.getBody().readUtf8(), type).getItems();
    }

    private static MockResponse status(int code, String reason, String message, String cause) {
        return status(code, reason, message, cause == null ? null : "DisruptionBudget", cause);
    }

    private static MockResponse status(int code, String reason, String message, String causeType, String cause) {
        StatusBuilder status = new StatusBuilder().withApiVersion("v1").withKind("Status").withCode(code)
                .withStatus(code < 300 ? "Success" : "Failure").withReason(reason).withMessage(message);
        if (cause != null) {
            status.withNewDetails().withCauses(new StatusCauseBuilder().withReason(causeType).withMessage(cause).build()).endDetails();
        }
        Status body = status.build();
        return new MockResponse().setResponseCode(code).setHeader("Content-Type", "application/json")
                .setBody(Serialization.asJson(body));
    }
}
