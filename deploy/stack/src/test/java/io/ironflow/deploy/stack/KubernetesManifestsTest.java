package io.ironflow.deploy.stack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Probe;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.ironflow.schemas.Topic;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * deploy/kubernetes/ parses with the Kubernetes model; its KafkaTopics are exactly {@link Topic} (rendered from it:
 * {@code -Dironflow.write-docs=true} rewrites topics.yaml); every service Deployment probes the health endpoints on
 * the port the service listens on, asks for resources, and takes its settings from the ConfigMap and Secrets.
 */
class KubernetesManifestsTest {

    private static final Path DIR = Path.of(System.getProperty("ironflow.home", "../..")).resolve("deploy/kubernetes");
    private static final KubernetesSerialization YAML = new KubernetesSerialization();

    @Test
    void everyManifestParsesAndTheKustomizationListsThemAll() throws IOException {
        List<String> files;
        try (var listing = Files.list(DIR)) {
            files = listing.map(p -> p.getFileName().toString()).filter(f -> f.endsWith(".yaml") && !f.equals("kustomization.yaml"))
                    .sorted().toList();
        }
        String kustomization = Files.readString(DIR.resolve("kustomization.yaml"));
        for (String file : files) {
            assertTrue(kustomization.contains("- " + file), "kustomization.yaml does not list " + file);
            List<HasMetadata> resources = parse(file);
            assertFalse(resources.isEmpty(), file + " holds no resource");
            for (HasMetadata resource : resources) {
                assertNotNull(resource.getMetadata().getName(), file + ": a " + resource.getKind() + " without a name");
                assertNotNull(resource.getApiVersion(), file + ": " + resource.getMetadata().getName() + " has no apiVersion");
            }
        }
    }

    @Test
    void theKafkaTopicsAreTheTopicTable() throws IOException {
        String rendered = renderTopics();
        Path file = DIR.resolve("topics.yaml");
        if (Boolean.getBoolean("ironflow.write-docs")) {
            Files.writeString(file, rendered);
        }
        assertEquals(rendered, Files.readString(file),
                "deploy/kubernetes/topics.yaml is stale: run ./mvnw -pl deploy/stack test -Dtest=KubernetesManifestsTest -Dironflow.write-docs=true");
        List<HasMetadata> topics = parse("topics.yaml");
        assertEquals(Topic.values().length, topics.size());
        for (HasMetadata topic : topics) {
            assertEquals("KafkaTopic", topic.getKind());
            assertTrue(topic instanceof GenericKubernetesResource, "a KafkaTopic is a custom resource");
        }
    }

    @Test
    void everyServiceIsProbedOnItsOwnPortAndConfiguredFromTheConfigMapAndSecrets() throws IOException {
        Map<String, Integer> ports = Map.of("api-service", 6385, "conductor-service", 6386, "oneview-allocator", 6387,
                "teardown-orchestrator", 6388, "dashboard", 6390);
        List<Deployment> deployments = parse("ironflow.yaml").stream()
                .filter(Deployment.class::isInstance).map(Deployment.class::cast).toList();
        assertEquals(ports.keySet(), deployments.stream().map(d -> d.getMetadata().getName()).collect(Collectors.toSet()));
        for (Deployment deployment : deployments) {
            String name = deployment.getMetadata().getName();
            assertEquals(ports.get(name), servicePort(name), name + ": the manifest's port is not the service's");
            Container container = deployment.getSpec().getTemplate().getSpec().getContainers().get(0);
            assertEquals(ports.get(name), container.getPorts().get(0).getContainerPort());
            assertProbe(name, "/q/health/live", container.getLivenessProbe());
            assertProbe(name, "/q/health/ready", container.getReadinessProbe());
            assertProbe(name, "/q/health/started", container.getStartupProbe());
            assertNotNull(container.getResources().getRequests().get("cpu"), name + " requests no CPU");
            assertNotNull(container.getResources().getRequests().get("memory"), name + " requests no memory");
            assertEquals("/deployments/config", container.getVolumeMounts().get(0).getMountPath());
            assertTrue(container.getEnv().stream().anyMatch(e -> e.getName().equals("KAFKA_SASL_JAAS_CONFIG")
                    && e.getValueFrom().getSecretKeyRef() != null), name + ": its Kafka principal is not from a Secret");
        }
    }

    private static void assertProbe(String service, String path, Probe probe) {
        assertNotNull(probe, service + " has no probe on " + path);
        assertEquals(path, probe.getHttpGet().getPath());
        assertEquals("http", probe.getHttpGet().getPort().getStrVal());
    }

    /** The port in the service's own application.properties. */
    private static int servicePort(String service) throws IOException {
        String module = service.equals("dashboard") ? "deploy/dashboard" : service;
        Properties properties = new Properties();
        try (var in = Files.newBufferedReader(DIR.resolve("../..").resolve(module).resolve("src/main/resources/application.properties"))) {
            properties.load(in);
        }
        return Integer.parseInt(properties.getProperty("quarkus.http.port"));
    }

    /** topics.yaml as the Topic table says: partitions, three replicas, compaction and other topic configs. */
    static String renderTopics() {
        StringBuilder yaml = new StringBuilder("""
                # Generated from io.ironflow.schemas.Topic by KubernetesManifestsTest (-Dironflow.write-docs=true): do not edit.
                # Keys are node uuids, so partition counts are fixed up front; every topic keeps three replicas.
                """);
        for (Topic topic : Topic.values()) {
            Map<String, String> config = new TreeMap<>(topic.configs());
            config.putIfAbsent("min.insync.replicas", "2");
            yaml.append("---\napiVersion: kafka.strimzi.io/v1beta2\nkind: KafkaTopic\nmetadata:\n")
                    .append("  name: ").append(topic.topicName().replace('.', '-')).append('\n')
                    .append("  labels:\n    strimzi.io/cluster: ironflow-kafka\n")
                    .append("spec:\n  topicName: ").append(topic.topicName()).append('\n')
                    .append("  partitions: ").append(topic.partitions()).append('\n')
                    .append("  replicas: 3\n  config:\n");
            config.forEach((key, value) -> yaml.append("    ").append(key).append(": \"").append(value).append("\"\n"));
        }
        return yaml.toString();
    }

    private static List<HasMetadata> parse(String file) throws IOException {
        Object parsed = YAML.unmarshal(Files.readString(DIR.resolve(file)));
        List<HasMetadata> resources = new ArrayList<>();
        if (parsed instanceof List<?> list) {
            list.forEach(item -> resources.add((HasMetadata) item));
        } else {
            resources.add((HasMetadata) parsed);
        }
        return resources;
    }
}
