package io.ironflow.teardown.kube;

import io.fabric8.kubernetes.api.model.DeleteOptionsBuilder;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.policy.v1.Eviction;
import io.fabric8.kubernetes.api.model.policy.v1.EvictionBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.ironflow.teardown.status.StatusMessage;
import io.ironflow.teardown.status.StepFailure;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * {@code kubectl drain --force --ignore-daemonsets --delete-local-data --grace-period G --timeout T}, as the
 * teardown spec's drain step: cordon the node (left cordoned on failure), pick its pods with
 * {@link DrainFilters#AIRSHIP} (if any pod is an error, nothing is evicted), evict each through the Eviction API
 * with the grace period, retry a 429 (a PodDisruptionBudget says not now) every {@code eviction-retry-interval}
 * (kubectl's 5 s), and wait until each evicted pod is gone: 404, or back with a new UID (a StatefulSet recreated
 * it). The timeout covers eviction and the wait together. A failure names every pod that would not go.
 */
@ApplicationScoped
public class NodeDrainer {

    static final Duration DELETION_POLL = Duration.ofSeconds(1);

    @Inject
    KubernetesClient client;

    @ConfigProperty(name = "ironflow.teardown.drain.eviction-retry-interval", defaultValue = "5s")
    Duration evictionRetry;

    /** One pod on its way out. */
    private static final class Leaving {
        final Pod pod;
        boolean evicted;
        Instant nextAttempt = Instant.MIN;
        String lastRefusal;

        Leaving(Pod pod) {
            this.pod = pod;
        }

        String namespace() {
            return pod.getMetadata().getNamespace();
        }

        String name() {
            return pod.getMetadata().getName();
        }

        String key() {
            return namespace() + "/" + name();
        }
    }

    /** Drains {@code node}; answers the warnings (skipped and forced pods); throws a 500 DrainNodeError. */
    public List<StatusMessage> drain(String node, Duration timeout, long gracePeriodSeconds) {
        Instant deadline = Instant.now().plus(timeout);
        List<StatusMessage> notes = new ArrayList<>();
        Map<String, Leaving> leaving = new LinkedHashMap<>();
        try {
            client.nodes().withName(node).edit(n -> new NodeBuilder(n).editOrNewSpec().withUnschedulable(true).endSpec().build());
            List<StatusMessage> refusals = new ArrayList<>();
            for (Pod pod : client.pods().inAnyNamespace().withField("spec.nodeName", node).list().getItems()) {
                DrainFilters.Verdict verdict = DrainFilters.AIRSHIP.apply(pod, this::daemonSetExists);
                String key = pod.getMetadata().getNamespace() + "/" + pod.getMetadata().getName();
                switch (verdict.action()) {
                    case ERROR -> refusals.add(StatusMessage.error(key, verdict.message()));
                    case SKIP -> {
                        if (verdict.message() != null) {
                            notes.add(StatusMessage.info(key, verdict.message()));
                        }
                    }
                    case DELETE -> {
                        leaving.put(key, new Leaving(pod));
                        if (verdict.message() != null) {
                            notes.add(StatusMessage.info(key, verdict.message()));
                        }
                    }
                }
            }
            if (!refusals.isEmpty()) {
                throw failure("node " + node + " cannot be drained: " + refusals.size() + " pod(s) cannot be deleted", refusals);
            }
            List<StatusMessage> failed = new ArrayList<>();
            while (!leaving.isEmpty()) {
                Instant now = Instant.now();
                for (Iterator<Leaving> it = leaving.values().iterator(); it.hasNext();) {
                    Leaving pod = it.next();
                    if (!pod.evicted && !now.isBefore(pod.nextAttempt)) {
                        String error = evict(pod, gracePeriodSeconds, now);
                        if (error != null) {
                            failed.add(StatusMessage.error(pod.key(), error));
                            it.remove();
                            continue;
                        }
                    }
                    if (pod.evicted && gone(pod)) {
                        it.remove();
                    }
                }
                if (leaving.isEmpty()) {
                    break;
                }
                if (Instant.now().isAfter(deadline)) {
                    for (Leaving pod : leaving.values()) {
                        failed.add(StatusMessage.error(pod.key(), pod.evicted ? "evicted but still present after "
                                + timeout.toSeconds() + " s" : "not evicted within " + timeout.toSeconds() + " s: " + pod.lastRefusal));
                    }
                    break;
                }
                sleep(DELETION_POLL);
            }
            if (!failed.isEmpty()) {
                List<StatusMessage> all = new ArrayList<>(failed);
                all.addAll(notes);
                throw failure("node " + node + " was not drained: " + failed.size() + " pod(s) would not go", all);
            }
            return notes;
        } catch (KubernetesClientException e) {
            throw failure("node " + node + " was not drained: the Kubernetes API answered " + e.getCode() + ": "
                    + e.getMessage(), List.of(StatusMessage.error(node, String.valueOf(e.getMessage()))));
        }
    }

    /** Tries one eviction; null when it was accepted or must be retried, else the error that fails the pod. */
    private String evict(Leaving pod, long gracePeriodSeconds, Instant now) {
        try {
            Eviction eviction = new EvictionBuilder().withNewMetadata().withName(pod.name()).withNamespace(pod.namespace())
                    .endMetadata().withDeleteOptions(new DeleteOptionsBuilder().withGracePeriodSeconds(gracePeriodSeconds).build()).build();
            if (client.pods().inNamespace(pod.namespace()).withName(pod.name()).evict(eviction)) {
                pod.evicted = true;
            } else {
                pod.lastRefusal = "eviction refused (429 TooManyRequests): a PodDisruptionBudget does not allow it now";
                pod.nextAttempt = now.plus(evictionRetry);
            }
            return null;
        } catch (KubernetesClientException e) {
            if (e.getCode() == 404) {
                pod.evicted = true;
                return null;
            }
            if (e.getCode() == 403 && namespaceTerminating(e)) {
                // No eviction is admitted in a namespace being deleted, and none is needed: its pods go with it.
                // kubectl waits for such a pod to be deleted; so does this.
                pod.evicted = true;
                return null;
            }
            return "eviction failed (" + e.getCode() + "): " + e.getMessage();
        }
    }

    /**
     * Gone, or replaced by a pod of the same name. A read the API server does not answer (for a moment, the drain's
     * timeout bounding it) says neither yet, and is tried at the next poll: only a write (an eviction) that fails
     * fails the pod, as kubectl's does.
     */
    private boolean gone(Leaving pod) {
        Pod now;
        try {
            now = client.pods().inNamespace(pod.namespace()).withName(pod.name()).get();
        } catch (KubernetesClientException e) {
            if (transientFailure(e)) {
                return false;
            }
            throw e;
        }
        return now == null || !java.util.Objects.equals(now.getMetadata().getUid(), pod.pod.getMetadata().getUid());
    }

    private static boolean namespaceTerminating(KubernetesClientException e) {
        return e.getStatus() != null && e.getStatus().getDetails() != null && e.getStatus().getDetails().getCauses() != null
                && e.getStatus().getDetails().getCauses().stream().anyMatch(c -> "NamespaceTerminating".equals(c.getReason()));
    }

    /** No answer (code 0: the connection refused or cut), or the API server's own 5xx. */
    private static boolean transientFailure(KubernetesClientException e) {
        return e.getCode() == 0 || e.getCode() >= 500;
    }

    private boolean daemonSetExists(String namespace, String name) {
        return client.apps().daemonSets().inNamespace(namespace).withName(name).get() != null;
    }

    private static StepFailure failure(String message, List<StatusMessage> details) {
        return new StepFailure(500, "DrainNodeError", message, details);
    }

    private static void sleep(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StepFailure(500, "DrainNodeError", "interrupted while draining");
        }
    }
}
