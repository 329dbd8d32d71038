package io.ironflow.teardown;

import static io.ironflow.teardown.KubeFixtures.budget;
import static io.ironflow.teardown.KubeFixtures.daemonSet;
import static io.ironflow.teardown.KubeFixtures.k8s;
import static io.ironflow.teardown.KubeFixtures.node;
import static io.ironflow.teardown.KubeFixtures.pod;
import static io.ironflow.teardown.KubeFixtures.podsOn;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.hasItems;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.ironflow.deploy.testing.IronflowTestInfrastructure;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.ValidatableResponse;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** The Promenade node steps over HTTP, against the real Kubernetes stand-in and a real three-member etcd. */
@QuarkusTest
@QuarkusTestResource(IronflowTestInfrastructure.class)
@QuarkusTestResource(TeardownPeers.class)
class NodeStepsTest {

    static final String DESIGN = "{\"rel\":\"design\",\"href\":\"deckhand+http://127.0.0.1/api/v1.0/revisions/1/rendered-documents\",\"type\":\"application/x-yaml\"}";

    static ValidatableResponse post(String path) {
        return given().contentType(ContentType.JSON).body(DESIGN).post("/api/v1.0" + path).then();
    }

    static void airship(ValidatableResponse response, int code, String reason) {
        response.statusCode(code).body("kind", equalTo("Status")).body("apiVersion", equalTo("v1.0"))
                .body("code", equalTo(code)).body("reason", equalTo(reason))
                .body("status", equalTo(code == 200 ? "Success" : "Failure"));
    }

    @Test
    void queryParametersAreCheckedBeforeTheNodeIsLookedUp() {
        airship(post("/nodes/nowhere/drain?timeout=60&grace-period=60"), 400, "BadRequest");
        airship(post("/nodes/nowhere/drain?timeout=abc"), 400, "BadRequest");
        airship(post("/nodes/nowhere/clear-labels?timeout=-1"), 400, "BadRequest");
        airship(post("/nodes/nowhere/decommission?drain-node-timeout=100&drain-node-grace-period=200"), 400, "BadRequest");
        airship(post("/nodes/nowhere/drain?timeout=60&grace-period=30"), 404, "NotFound");
        for (String step : new String[] {"clear-labels", "remove-etcd", "shutdown-kubelet", "remove-from-cluster", "decommission"}) {
            airship(post("/nodes/nowhere/" + step), 404, "NotFound");
        }
    }

    @Test
    void drainEvictsWithKubectlsFiltersAndLeavesTheNodeCordoned() {
        node("drain-a");
        daemonSet("drain", "agent");
        pod("drain", "agent-x", "drain-a", Map.of("ds", "agent"), "DaemonSet", "agent");
        pod("drain", "orphan-ds", "drain-a", Map.of(), "DaemonSet", "gone");
        pod("drain", "web-1", "drain-a", Map.of("app", "web"), "ReplicaSet", "web");
        pod("drain", "bare", "drain-a", Map.of(), null, null);
        k8s().pods().inNamespace("drain").resource(new PodBuilder().withNewMetadata().withName("scratch").withNamespace("drain")
                .endMetadata().withNewSpec().withNodeName("drain-a").addNewVolume().withName("tmp").withNewEmptyDir().endEmptyDir()
                .endVolume().addNewContainer().withName("c").withImage("busybox").endContainer().endSpec()
                .withNewStatus().withPhase("Running").endStatus().build()).create();
        k8s().pods().inNamespace("kube-system").resource(new PodBuilder().withNewMetadata().withName("apiserver-drain-a")
                .withNamespace("kube-system").addToAnnotations("kubernetes.io/config.mirror", "x").endMetadata().withNewSpec()
                .withNodeName("drain-a").addNewContainer().withName("c").withImage("k8s").endContainer().endSpec().build()).create();

        ValidatableResponse response = post("/nodes/drain-a/drain?timeout=30&grace-period=5");
        airship(response, 200, "Success");
        response.body("details.messageList.name", hasItems("drain/agent-x", "drain/bare", "drain/scratch", "drain/orphan-ds"));

        assertTrue(k8s().nodes().withName("drain-a").get().getSpec().getUnschedulable());
        assertEquals(2, podsOn("drain-a"), "the live DaemonSet's pod and the mirror pod stay");
        assertNull(k8s().pods().inNamespace("drain").withName("web-1").get());
    }

    @Test
    void aBudgetThatNeverAllowsTheEvictionFailsTheDrainNamingThePod() {
        node("drain-b");
        pod("pdb", "db-0", "drain-b", Map.of("app", "db"), "StatefulSet", "db");
        pod("pdb", "cache", "drain-b", Map.of("app", "cache"), "ReplicaSet", "cache");
        budget("pdb", "db-budget", "db", 1);

        ValidatableResponse response = post("/nodes/drain-b/drain?timeout=3&grace-period=1");
        airship(response, 500, "DrainNodeError");
        response.body("details.errorCount", equalTo(1)).body("details.messageList.name", hasItem("pdb/db-0"))
                .body("details.messageList.message", hasItem(containsString("429")));
        assertNull(k8s().pods().inNamespace("pdb").withName("cache").get(), "pods the budget does not cover went");
    }

    @Test
    void aBudgetThatFreesUpWithinTheTimeoutLetsTheDrainFinish() throws Exception {
        node("drain-c");
        pod("pdb2", "db-0", "drain-c", Map.of("app", "db"), "StatefulSet", "db");
        budget("pdb2", "db-budget", "db", 1);
        CompletableFuture<Void> replacement = CompletableFuture.runAsync(() -> {
            try {
                Thread.sleep(2500);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            pod("pdb2", "db-1", "elsewhere", Map.of("app", "db"), "StatefulSet", "db");
        });
        airship(post("/nodes/drain-c/drain?timeout=30&grace-period=1"), 200, "Success");
        replacement.get();
        assertEquals(0, podsOn("drain-c"));
    }

    /**
     * A pod whose namespace is being deleted cannot be evicted (the API server admits nothing new there: 403,
     * NamespaceTerminating) and needs not be: it goes with its namespace. The drain waits for it, as kubectl does,
     * instead of failing on the 403.
     */
    @Test
    void aPodInANamespaceBeingDeletedIsWaitedForNotFailed() throws Exception {
        node("drain-d");
        pod("dying", "web-1", "drain-d", Map.of("app", "web"), "ReplicaSet", "web");
        k8s().namespaces().resource(new io.fabric8.kubernetes.api.model.NamespaceBuilder().withNewMetadata().withName("dying")
                .endMetadata().withNewStatus().withPhase("Terminating").endStatus().build()).createOr(ns -> ns.update());
        CompletableFuture<ValidatableResponse> drain = CompletableFuture.supplyAsync(
                () -> post("/nodes/drain-d/drain?timeout=30&grace-period=1"));
        org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(20))
                .until(() -> k8s().nodes().withName("drain-d").get().getSpec() != null
                        && Boolean.TRUE.equals(k8s().nodes().withName("drain-d").get().getSpec().getUnschedulable()));
        org.awaitility.Awaitility.await("the drain waits for the pod, not failing on the 403")
                .during(java.time.Duration.ofSeconds(2)).atMost(java.time.Duration.ofSeconds(5)).until(() -> !drain.isDone());
        k8s().pods().inNamespace("dying").withName("web-1").delete(); // as the namespace controller does
        airship(drain.get(), 200, "Success");
    }

    @Test
    void clearLabelsKeepsTheKubeletsOwn() {
        node("labels-a");
        airship(post("/nodes/labels-a/clear-labels?timeout=10"), 200, "Success");
        Map<String, String> labels = k8s().nodes().withName("labels-a").get().getMetadata().getLabels();
        assertEquals(Map.of("kubernetes.io/hostname", "labels-a", "kubernetes.io/os", "linux"), labels);
    }

    @Test
    void removeFromClusterWantsACordonedNodeWithoutOperatorLabels() {
        node("remove-a");
        airship(post("/nodes/remove-a/remove-from-cluster"), 409, "Conflict");
        airship(post("/nodes/remove-a/drain?timeout=10&grace-period=1"), 200, "Success");
        ValidatableResponse labelled = post("/nodes/remove-a/remove-from-cluster");
        airship(labelled, 409, "Conflict");
        labelled.body("message", containsString("ceph-osd"));
        airship(post("/nodes/remove-a/clear-labels"), 200, "Success");
        airship(post("/nodes/remove-a/shutdown-kubelet"), 200, "Success");
        airship(post("/nodes/remove-a/remove-from-cluster"), 200, "Success");
        assertNull(k8s().nodes().withName("remove-a").get());
        airship(post("/nodes/remove-a/remove-from-cluster"), 404, "NotFound");
    }

    @Test
    void shutdownKubeletLabelsTheNodeAndWaitsUntilItStopsReporting() {
        node("kubelet-a");
        airship(post("/nodes/kubelet-a/shutdown-kubelet"), 200, "Success");
        Node node = k8s().nodes().withName("kubelet-a").get();
        assertEquals("enabled", node.getMetadata().getLabels().get("promenade-decomission"));
        assertEquals("Unknown", node.getStatus().getConditions().stream().filter(c -> c.getType().equals("Ready"))
                .findFirst().orElseThrow().getStatus());
    }
}
