package io.ironflow.deploy.kube;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudgetBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The stand-in over its real HTTP port: CRUD, the node field selector, eviction against budgets, the kubelet. */
class KubeMockServerTest {

    static KubeMockServer mock;
    static KubernetesClient client;

    @BeforeAll
    static void start() throws Exception {
        mock = KubeMockServer.start("127.0.0.1", 0, 200);
        Config config = new ConfigBuilder().withMasterUrl("http://127.0.0.1:" + mock.port()).withNamespace("default")
                .withRequestRetryBackoffLimit(0).build();
        client = new KubernetesClientBuilder().withConfig(config).build();
    }

    @AfterAll
    static void stop() {
        client.close();
        mock.close();
    }

    static Node node(String name) {
        return client.nodes().resource(new NodeBuilder().withNewMetadata().withName(name).endMetadata()
                .withNewStatus().addNewCondition().withType("Ready").withStatus("True").endCondition().endStatus().build()).create();
    }

    static Pod pod(String ns, String name, String node, String app) {
        return client.pods().inNamespace(ns).resource(new PodBuilder().withNewMetadata().withName(name).withNamespace(ns)
                .addToLabels("app", app).endMetadata().withNewSpec().withNodeName(node).addNewContainer().withName("c")
                .withImage("busybox").endContainer().endSpec().withNewStatus().withPhase("Running").endStatus().build()).create();
    }

    @Test
    void podsAreListedByNodeName() {
        node("fs-a");
        node("fs-b");
        pod("fs", "on-a", "fs-a", "x");
        pod("fs", "on-b", "fs-b", "x");
        assertEquals(1, client.pods().inAnyNamespace().withField("spec.nodeName", "fs-a").list().getItems().size());
        assertEquals("on-b", client.pods().inNamespace("fs").withField("spec.nodeName", "fs-b").list().getItems().get(0).getMetadata().getName());
    }

    @Test
    void evictionDeletesThePodOrAnswers429WhileTheBudgetWouldBreak() throws Exception {
        node("ev-a");
        pod("ev", "web-1", "ev-a", "web");
        pod("ev", "web-2", "ev-a", "web");
        pod("ev", "free", "ev-a", "other");
        client.policy().v1().podDisruptionBudget().inNamespace("ev").resource(new PodDisruptionBudgetBuilder()
                .withNewMetadata().withName("web-pdb").withNamespace("ev").endMetadata().withNewSpec()
                .withNewSelector().addToMatchLabels("app", "web").endSelector()
                .withNewMinAvailable(1).endSpec().build()).create();

        assertTrue(client.pods().inNamespace("ev").withName("free").evict());
        assertNull(client.pods().inNamespace("ev").withName("free").get());

        assertTrue(client.pods().inNamespace("ev").withName("web-1").evict(), "2 healthy, 1 required: one may go");
        assertFalse(client.pods().inNamespace("ev").withName("web-2").evict(), "the last one would break the budget");
        assertEquals(429, rawEviction("ev", "web-2").statusCode());
        assertTrue(rawEviction("ev", "web-2").body().contains("web-pdb needs 1 healthy pods and has 1"));

        pod("ev", "web-3", "other-node", "web");
        assertTrue(client.pods().inNamespace("ev").withName("web-2").evict(), "a replacement elsewhere frees the budget");
        assertEquals(404, rawEviction("ev", "web-2").statusCode());
    }

    @Test
    void twoBudgetsSelectingAPodAre500() {
        pod("two", "p", "n", "db");
        for (String name : new String[] {"a", "b"}) {
            client.policy().v1().podDisruptionBudget().inNamespace("two").resource(new PodDisruptionBudgetBuilder()
                    .withNewMetadata().withName(name).withNamespace("two").endMetadata().withNewSpec()
                    .withNewSelector().addToMatchLabels("app", "db").endSelector().withNewMaxUnavailable(1).endSpec().build()).create();
        }
        KubernetesClientException e = assertThrows(KubernetesClientException.class,
                () -> client.pods().inNamespace("two").withName("p").evict());
        assertEquals(500, e.getCode());
    }

    @Test
    void aNodeLabelledForDecommissionStopsReporting() {
        node("kl-a");
        node("kl-b");
        client.nodes().withName("kl-a").edit(n -> new NodeBuilder(n).editMetadata().addToLabels("promenade-decomission", "enabled").endMetadata().build());
        await().atMost(Duration.ofSeconds(5)).until(() -> "Unknown".equals(ready("kl-a")));
        assertEquals("True", ready("kl-b"));
    }

    @Test
    void seedsObjectsFromYaml() {
        String yaml = """
                apiVersion: v1
                kind: Node
                metadata:
                  name: seeded
                ---
                apiVersion: v1
                kind: Pod
                metadata:
                  name: seeded-pod
                  namespace: seed
                spec:
                  nodeName: seeded
                  containers: [{name: c, image: busybox}]
                """;
        mock.seed(new ByteArrayInputStream(yaml.getBytes(StandardCharsets.UTF_8)));
        assertEquals("seeded", client.nodes().withName("seeded").get().getMetadata().getName());
        assertEquals(1, client.pods().inAnyNamespace().withField("spec.nodeName", "seeded").list().getItems().size());
    }

    private static String ready(String node) {
        return client.nodes().withName(node).get().getStatus().getConditions().stream()
                .filter(c -> c.getType().equals("Ready")).findFirst().orElseThrow().getStatus();
    }

    private static HttpResponse<String> rawEviction(String ns, String pod) throws Exception {
        String body = "{\"apiVersion\":\"policy/v1\",\"kind\":\"Eviction\",\"metadata\":{\"name\":\"" + pod + "\",\"namespace\":\"" + ns + "\"}}";
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + mock.port()
                + "/api/v1/namespaces/" + ns + "/pods/" + pod + "/eviction")).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }
}
