package io.ironflow.deploy.stack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
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
 * the port the service listens on, asks for resources, and takes its settings from the ConfigMap and Secrets; the
 * registry takes basic auth of exactly the Kafka principals, each service logging in as its own. Issue 58: nothing
 * crosses the network in clear (HTTPS, SASL_SSL), every pod is under a NetworkPolicy, and each service logs in to
 * the database as its own role.
 */
@SuppressWarnings("unchecked")
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

    /**
     * Intent signatures (issue 58): each sender mounts its own signing key's Secret and no other, readable by its
     * pod's group only (a world-readable key is refused); the conductor mounts the trusted keys and no signing key;
     * the dashboard, which sends nothing, neither.
     */
    @Test
    void eachSenderHoldsOnlyItsOwnIntentKeyAndTheConductorOnlyTheTrustedKeys() throws IOException {
        Map<String, String> keys = Map.of("api-service", "ironflow-intent-key-api", "oneview-allocator", "ironflow-intent-key-oneview",
                "teardown-orchestrator", "ironflow-intent-key-teardown");
        for (Deployment deployment : parse("ironflow.yaml").stream().filter(Deployment.class::isInstance).map(Deployment.class::cast).toList()) {
            String name = deployment.getMetadata().getName();
            var pod = deployment.getSpec().getTemplate().getSpec();
            List<String> secrets = pod.getVolumes().stream().filter(v -> v.getSecret() != null
                    && v.getSecret().getSecretName().startsWith("ironflow-intent-key")).map(v -> v.getSecret().getSecretName()).toList();
            assertEquals(keys.containsKey(name) ? List.of(keys.get(name)) : List.of(), secrets, name + "'s intent keys");
            pod.getVolumes().stream().filter(v -> v.getSecret() != null && v.getSecret().getSecretName().startsWith("ironflow-intent-key"))
                    .forEach(v -> assertEquals(0440, v.getSecret().getDefaultMode(), name + ": the key is for the pod's group only"));
            if (keys.containsKey(name)) {
                assertEquals(185L, pod.getSecurityContext().getFsGroup(), name + ": the image's user reads its key through fsGroup");
            }
            boolean trusts = pod.getVolumes().stream().anyMatch(v -> v.getConfigMap() != null
                    && v.getConfigMap().getName().equals("ironflow-intent-trust"));
            assertEquals(name.equals("conductor-service"), trusts, name + " mounts the trusted intent keys");
        }
        assertEquals("/deployments/intent-key/signing-key.jwk", sharedConfig().getProperty("ironflow.intents.signing-key"));
        assertEquals("/deployments/intent-trust/trusted-keys.jwks", sharedConfig().getProperty("ironflow.intents.trusted-keys"));
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
            EnvVar jaas = env(container, "KAFKA_SASL_JAAS_CONFIG");
            assertNotNull(jaas, name + " has no Kafka principal");
            assertNotNull(jaas.getValueFrom().getSecretKeyRef(), name + ": its Kafka principal is not from a Secret");
            // the registry's basic auth: the same principal, its password from the same Strimzi Secret
            String principal = jaas.getValueFrom().getSecretKeyRef().getName();
            EnvVar user = env(container, "REGISTRY_USERNAME");
            EnvVar password = env(container, "REGISTRY_PASSWORD");
            assertNotNull(user, name + " has no registry user");
            assertEquals(principal, user.getValue(), name + ": its registry user is not its Kafka principal");
            assertNotNull(password, name + " has no registry password");
            assertNotNull(password.getValueFrom().getSecretKeyRef(), name + ": its registry password is not from a Secret");
            assertEquals(principal, password.getValueFrom().getSecretKeyRef().getName(), name + ": registry password");
            assertEquals("password", password.getValueFrom().getSecretKeyRef().getKey(), name + ": registry password");
        }
        Properties shared = sharedConfig();
        assertEquals("${REGISTRY_USERNAME}", shared.getProperty("kafka.apicurio.registry.auth.username"));
        assertEquals("${REGISTRY_PASSWORD}", shared.getProperty("kafka.apicurio.registry.auth.password"));
    }

    /**
     * The registry is never open: the Service reaches only the auth proxy, Apicurio listens on the pod's loopback,
     * every proxied path but health needs a user, and the users are exactly the Kafka principals (KafkaAccess), each
     * with its Strimzi Secret's password.
     */
    @Test
    void theRegistryTakesBasicAuthOfEveryKafkaPrincipalAndNothingElse() throws IOException {
        List<HasMetadata> resources = parse("registry.yaml");
        Deployment deployment = resources.stream().filter(Deployment.class::isInstance).map(Deployment.class::cast)
                .findFirst().orElseThrow();
        var pod = deployment.getSpec().getTemplate().getSpec();
        Container proxy = pod.getContainers().stream().filter(c -> c.getName().equals("auth-proxy")).findFirst().orElseThrow();
        Container registry = pod.getContainers().stream().filter(c -> c.getImage().startsWith("apicurio/")).findFirst().orElseThrow();
        var service = resources.stream().filter(io.fabric8.kubernetes.api.model.Service.class::isInstance)
                .map(io.fabric8.kubernetes.api.model.Service.class::cast).findFirst().orElseThrow();
        String target = service.getSpec().getPorts().get(0).getTargetPort().getStrVal();
        assertEquals(List.of(target), proxy.getPorts().stream().map(p -> p.getName()).toList(), "the Service must reach the proxy only");
        assertTrue(registry.getPorts() == null || registry.getPorts().isEmpty(), "Apicurio must expose no port of its own");
        String javaOptions = env(registry, "JAVA_OPTIONS").getValue();
        assertTrue(javaOptions.contains("-Dquarkus.http.host=127.0.0.1"), "Apicurio must listen on loopback only: " + javaOptions);
        assertTrue(javaOptions.contains("-Dquarkus.http.port=8081"), javaOptions);

        String nginx = resources.stream().filter(r -> r instanceof io.fabric8.kubernetes.api.model.ConfigMap)
                .map(r -> ((io.fabric8.kubernetes.api.model.ConfigMap) r).getData().get("default.conf")).findFirst().orElseThrow();
        Map<String, String> blocks = locationBlocks(nginx);
        assertTrue(blocks.containsKey("/"), "no catch-all location: " + nginx);
        blocks.forEach((path, block) -> {
            assertTrue(block.contains("proxy_pass http://127.0.0.1:8081;"), path + " does not reach Apicurio");
            if (path.equals("/health/")) {
                return; // open, as the local stack's
            }
            assertTrue(block.contains("auth_basic \"") && block.contains("auth_basic_user_file /etc/nginx/users/htpasswd;"),
                    "the registry's " + path + " is open");
            assertTrue(block.contains("proxy_set_header Authorization \"\";"), path + " passes credentials on to Apicurio");
        });

        java.util.Set<String> users = new java.util.TreeSet<>();
        for (var volume : pod.getVolumes()) {
            if (volume.getProjected() != null) {
                for (var source : volume.getProjected().getSources()) {
                    var item = source.getSecret().getItems().get(0);
                    assertEquals("password", item.getKey());
                    assertEquals(source.getSecret().getName(), item.getPath(), "a user must be named as its Secret");
                    users.add(item.getPath());
                }
            }
        }
        assertEquals(io.ironflow.deploy.infra.KafkaAccess.services().stream().map(io.ironflow.deploy.infra.KafkaAccess::user)
                .collect(Collectors.toCollection(java.util.TreeSet::new)), users, "the registry's users are not the Kafka principals");
        Container init = pod.getInitContainers().get(0);
        assertTrue(String.join(" ", init.getCommand()).contains("htpasswd -niB"), "the users' file is not bcrypt from stdin");
        assertTrue(init.getVolumeMounts().stream().anyMatch(m -> m.getName().equals("users"))
                && proxy.getVolumeMounts().stream().anyMatch(m -> m.getName().equals("users") && m.getMountPath().equals("/etc/nginx/users")));
    }

    /**
     * Least privilege in the database (issue 58): each service logs in as its own role, from its own Secret (the
     * conductor as the owner, the API with a role that may only read, the teardown orchestrator with one that owns
     * its schema only, the registry with one that owns its own database), and the allocator and the dashboard, which
     * have no database, get no database Secret at all.
     */
    @Test
    void eachServiceLogsInToTheDatabaseAsItsOwnRoleAndTheAllocatorNotAtAll() throws IOException {
        Map<String, String> secrets = Map.of("api-service", "ironflow-db-api", "conductor-service", "ironflow-db-app",
                "teardown-orchestrator", "ironflow-db-teardown", "ironflow-registry", "ironflow-db-registry");
        for (Deployment deployment : concat(parse("ironflow.yaml"), parse("registry.yaml")).stream()
                .filter(Deployment.class::isInstance).map(Deployment.class::cast).toList()) {
            String name = deployment.getMetadata().getName();
            var pod = deployment.getSpec().getTemplate().getSpec();
            java.util.Set<String> databaseSecrets = new java.util.TreeSet<>();
            for (Container container : concat(pod.getContainers(), pod.getInitContainers())) {
                for (EnvVar variable : container.getEnv()) {
                    if (variable.getValueFrom() != null && variable.getValueFrom().getSecretKeyRef() != null
                            && variable.getValueFrom().getSecretKeyRef().getName().startsWith("ironflow-db-")) {
                        databaseSecrets.add(variable.getValueFrom().getSecretKeyRef().getName());
                    }
                }
            }
            assertEquals(secrets.containsKey(name) ? java.util.Set.of(secrets.get(name)) : java.util.Set.of(), databaseSecrets,
                    name + "'s database Secrets");
        }
        Map<String, Object> cluster = ((GenericKubernetesResource) parse("postgres.yaml").get(0)).getAdditionalProperties();
        Map<String, Object> spec = (Map<String, Object>) cluster.get("spec");
        List<Map<String, Object>> roles = (List<Map<String, Object>>) ((Map<String, Object>) spec.get("managed")).get("roles");
        Map<String, String> roleSecrets = new TreeMap<>();
        roles.forEach(role -> roleSecrets.put((String) role.get("name"),
                (String) ((Map<String, Object>) role.get("passwordSecret")).get("name")));
        assertEquals(Map.of("ironflow_api", "ironflow-db-api", "ironflow_teardown", "ironflow-db-teardown",
                "ironflow_registry", "ironflow-db-registry"), roleSecrets);
        String initSql = String.valueOf(((Map<String, Object>) ((Map<String, Object>) spec.get("bootstrap")).get("initdb"))
                .get("postInitApplicationSQL"));
        assertTrue(initSql.contains("CREATE SCHEMA teardown AUTHORIZATION ironflow_teardown"), initSql);
    }

    private static <T> List<T> concat(List<T> a, List<T> b) {
        List<T> all = new ArrayList<>(a == null ? List.of() : a);
        all.addAll(b == null ? List.of() : b);
        return all;
    }

    /** nginx's {@code location PATH { ... }} blocks by path, nested blocks ({@code if}, {@code limit_except}) included. */
    private static Map<String, String> locationBlocks(String nginx) {
        Map<String, String> blocks = new TreeMap<>();
        var locations = java.util.regex.Pattern.compile("location\\s+(\\S+)\\s*\\{").matcher(nginx);
        while (locations.find()) {
            int depth = 1;
            int end = locations.end();
            while (depth > 0) {
                char c = nginx.charAt(end++);
                depth += c == '{' ? 1 : c == '}' ? -1 : 0;
            }
            blocks.put(locations.group(1), nginx.substring(locations.end(), end - 1));
        }
        return blocks;
    }

    /**
     * Issue 58: Kafka's client listener never runs without authentication or without TLS (SCRAM passwords and
     * records, BMC credentials included, crossed the pod network in clear on a SASL_PLAINTEXT listener), and the
     * services' shared settings speak SASL_SSL to it, checking the brokers against Strimzi's cluster CA.
     */
    @Test
    void everyKafkaListenerAuthenticatesOverTls() throws IOException {
        GenericKubernetesResource kafka = parse("kafka.yaml").stream().filter(r -> r.getKind().equals("Kafka"))
                .map(GenericKubernetesResource.class::cast).findFirst().orElseThrow();
        Map<String, Object> spec = (Map<String, Object>) ((Map<String, Object>) kafka.getAdditionalProperties().get("spec")).get("kafka");
        List<Map<String, Object>> listeners = (List<Map<String, Object>>) spec.get("listeners");
        assertFalse(listeners.isEmpty());
        java.util.Set<String> ports = new java.util.TreeSet<>();
        for (Map<String, Object> listener : listeners) {
            assertNotNull(listener.get("authentication"), "Kafka listener " + listener.get("name") + " takes anybody");
            assertEquals(Boolean.TRUE, listener.get("tls"), "Kafka listener " + listener.get("name") + " speaks in clear");
            assertNotNull(listener.get("networkPolicyPeers"), "Kafka listener " + listener.get("name") + " is open to every pod");
            ports.add(String.valueOf(listener.get("port")));
        }
        Properties shared = sharedConfig();
        assertEquals("SASL_SSL", shared.getProperty("kafka.security.protocol"));
        assertTrue(ports.contains(shared.getProperty("kafka.bootstrap.servers").replaceAll(".*:", "")),
                "the services' bootstrap port is no listener's");
        assertNotNull(shared.getProperty("kafka.ssl.truststore.location"), "the brokers' certificates are not checked");
    }

    /**
     * Issue 58: http_basic credentials crossed the network in clear. Every service serves HTTPS only (the plain port
     * is not opened), with a certificate from a Secret; the registry, its proxy included, is HTTPS only too.
     */
    @Test
    void everyServiceAndTheRegistryServeHttpsOnly() throws IOException {
        Properties shared = sharedConfig();
        assertEquals("disabled", shared.getProperty("quarkus.http.insecure-requests"), "a plain HTTP port stays open");
        assertEquals("${quarkus.http.port}", shared.getProperty("quarkus.http.ssl-port"), "HTTPS is not on the service's port");
        assertTrue(shared.getProperty("quarkus.tls.key-store.pem.0.cert", "").startsWith("/deployments/tls/"), "no certificate");
        assertTrue(shared.getProperty("quarkus.tls.key-store.pem.0.key", "").startsWith("/deployments/tls/"), "no key");
        assertTrue(shared.getProperty("mp.messaging.connector.smallrye-kafka.apicurio.registry.url").startsWith("https://"));
        for (Deployment deployment : parse("ironflow.yaml").stream().filter(Deployment.class::isInstance)
                .map(Deployment.class::cast).toList()) {
            var pod = deployment.getSpec().getTemplate().getSpec();
            assertTrue(pod.getVolumes().stream().anyMatch(v -> v.getSecret() != null && v.getSecret().getSecretName().equals("ironflow-tls")),
                    deployment.getMetadata().getName() + " mounts no certificate");
        }
        for (var service : concat(parse("ironflow.yaml"), parse("registry.yaml")).stream()
                .filter(io.fabric8.kubernetes.api.model.Service.class::isInstance)
                .map(io.fabric8.kubernetes.api.model.Service.class::cast).toList()) {
            service.getSpec().getPorts().forEach(port -> assertEquals("https", port.getName(),
                    service.getMetadata().getName() + " serves a port in clear"));
        }
        String nginx = parse("registry.yaml").stream().filter(r -> r instanceof io.fabric8.kubernetes.api.model.ConfigMap)
                .map(r -> ((io.fabric8.kubernetes.api.model.ConfigMap) r).getData().get("default.conf")).findFirst().orElseThrow();
        var listens = java.util.regex.Pattern.compile("listen\\s+([^;]*);").matcher(nginx);
        while (listens.find()) {
            assertTrue(listens.group(1).contains(" ssl"), "the registry's proxy listens in clear: " + listens.group(1));
        }
    }

    /**
     * Issue 58: no NetworkPolicy, so any pod could reach any port. Every pod of Ironflow is under the default deny
     * (ingress and egress) and has a policy of its own that opens only what it needs; the allocator reaches no
     * database, and only the pods that use it reach PostgreSQL.
     */
    @Test
    void everyPodIsDeniedByDefaultAndAllowedOnlyWhatItNeeds() throws IOException {
        List<io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy> policies = parse("network-policies.yaml").stream()
                .map(io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy.class::cast).toList();
        var deny = policies.stream().filter(p -> p.getSpec().getIngress().isEmpty() && p.getSpec().getEgress().isEmpty()
                && p.getSpec().getPolicyTypes().containsAll(List.of("Ingress", "Egress"))).findFirst()
                .orElseThrow(() -> new AssertionError("no default-deny NetworkPolicy"));
        List<Deployment> deployments = concat(parse("ironflow.yaml"), parse("registry.yaml")).stream()
                .filter(Deployment.class::isInstance).map(Deployment.class::cast).toList();
        for (Deployment deployment : deployments) {
            String name = deployment.getMetadata().getName();
            Map<String, String> labels = deployment.getSpec().getTemplate().getMetadata().getLabels();
            assertTrue(selects(deny.getSpec().getPodSelector(), labels), name + " is not under the default deny");
            var own = policies.stream().filter(p -> p != deny && name.equals(p.getSpec().getPodSelector().getMatchLabels() == null
                    ? null : p.getSpec().getPodSelector().getMatchLabels().get("app.kubernetes.io/name"))).toList();
            assertEquals(1, own.size(), name + " has no NetworkPolicy of its own");
            var policy = own.get(0);
            assertTrue(policy.getSpec().getPolicyTypes().containsAll(List.of("Ingress", "Egress")), name);
            policy.getSpec().getEgress().forEach(rule -> {
                assertFalse(rule.getTo() == null || rule.getTo().isEmpty(), name + " may reach anything");
                assertFalse(rule.getPorts() == null || rule.getPorts().isEmpty(), name + " may reach any port");
            });
            boolean database = policy.getSpec().getEgress().stream().flatMap(r -> r.getTo().stream())
                    .anyMatch(peer -> peer.getPodSelector() != null && peer.getPodSelector().getMatchLabels() != null
                            && peer.getPodSelector().getMatchLabels().containsKey("cnpg.io/cluster"));
            assertEquals(!List.of("oneview-allocator", "dashboard").contains(name), database, name + " and the database");
        }
    }

    private static boolean selects(io.fabric8.kubernetes.api.model.LabelSelector selector, Map<String, String> labels) {
        return selector.getMatchLabels() != null && labels.entrySet().containsAll(selector.getMatchLabels().entrySet());
    }

    private static EnvVar env(Container container, String name) {
        return container.getEnv().stream().filter(e -> e.getName().equals(name)).findFirst().orElse(null);
    }

    /** The ConfigMap's application.properties, which every service mounts. */
    private static Properties sharedConfig() throws IOException {
        Properties properties = new Properties();
        String text = parse("ironflow.yaml").stream().filter(r -> r instanceof io.fabric8.kubernetes.api.model.ConfigMap)
                .map(r -> ((io.fabric8.kubernetes.api.model.ConfigMap) r).getData().get("application.properties"))
                .findFirst().orElseThrow();
        properties.load(new java.io.StringReader(text));
        return properties;
    }

    @Test
    void everyTopicAndGroupAServiceUsesIsInItsKafkaPrincipalsAcls() throws IOException {
        Map<String, String> principals = Map.of("api-service", "ironflow-api", "conductor-service", "ironflow-conductor",
                "oneview-allocator", "ironflow-oneview", "teardown-orchestrator", "ironflow-teardown");
        Map<String, List<Map<String, Object>>> acls = new TreeMap<>();
        for (HasMetadata user : parse("users.yaml")) {
            Map<String, Object> spec = (Map<String, Object>) ((GenericKubernetesResource) user).getAdditionalProperties().get("spec");
            acls.put(user.getMetadata().getName(), (List<Map<String, Object>>) ((Map<String, Object>) spec.get("authorization")).get("acls"));
        }
        for (var service : principals.entrySet()) {
            Properties properties = properties(service.getKey());
            List<Map<String, Object>> granted = acls.get(service.getValue());
            for (String key : properties.stringPropertyNames()) {
                String value = properties.getProperty(key);
                if (key.matches("mp\\.messaging\\.incoming\\.[^.]+\\.topic")) {
                    assertGranted(service.getValue(), granted, "topic", value, "Read");
                } else if (key.matches("mp\\.messaging\\.incoming\\.[^.]+\\.group\\.id")) {
                    assertGranted(service.getValue(), granted, "group", value.replaceAll("\\$\\{.*$", ""), "Read");
                } else if (key.matches("mp\\.messaging\\.outgoing\\.[^.]+\\.topic")
                        || key.matches("mp\\.messaging\\.incoming\\.[^.]+\\.dead-letter-queue\\.topic")) {
                    assertGranted(service.getValue(), granted, "topic", value, "Write");
                }
            }
        }
    }

    /** The local secure stack's ACLs (KafkaAccess) and the Kubernetes users' are the same table. */
    @Test
    @SuppressWarnings("unchecked")
    void theEmbeddedBrokersAclsAreTheKubernetesUsersAcls() throws IOException {
        Map<String, java.util.Set<String>> kubernetes = new TreeMap<>();
        for (HasMetadata user : parse("users.yaml")) {
            Map<String, Object> spec = (Map<String, Object>) ((GenericKubernetesResource) user).getAdditionalProperties().get("spec");
            java.util.Set<String> rights = new java.util.TreeSet<>();
            for (Map<String, Object> acl : (List<Map<String, Object>>) ((Map<String, Object>) spec.get("authorization")).get("acls")) {
                Map<String, Object> resource = (Map<String, Object>) acl.get("resource");
                String pattern = "prefix".equals(resource.get("patternType")) ? "prefixed" : "literal";
                for (String operation : (List<String>) acl.get("operations")) {
                    rights.add(resource.get("type") + " " + resource.get("name") + " " + pattern + " " + operation.toLowerCase());
                }
            }
            kubernetes.put(user.getMetadata().getName(), rights);
        }
        Map<String, java.util.Set<String>> embedded = new TreeMap<>();
        for (io.ironflow.deploy.infra.KafkaAccess principal : io.ironflow.deploy.infra.KafkaAccess.services()) {
            java.util.Set<String> rights = new java.util.TreeSet<>();
            principal.acls().forEach(acl -> rights.add(acl.pattern().resourceType().name().toLowerCase() + " "
                    + acl.pattern().name() + " " + acl.pattern().patternType().name().toLowerCase() + " "
                    + acl.entry().operation().name().toLowerCase()));
            embedded.put(principal.user(), rights);
        }
        assertEquals(kubernetes, embedded);
    }

    @SuppressWarnings("unchecked")
    private static void assertGranted(String principal, List<Map<String, Object>> acls, String type, String name, String operation) {
        boolean granted = acls.stream().anyMatch(acl -> {
            Map<String, Object> resource = (Map<String, Object>) acl.get("resource");
            String pattern = (String) resource.get("name");
            boolean matches = "prefix".equals(resource.get("patternType")) ? name.startsWith(pattern) : name.equals(pattern);
            return type.equals(resource.get("type")) && matches && ((List<String>) acl.get("operations")).contains(operation);
        });
        assertTrue(granted, principal + " lacks " + operation + " on " + type + " " + name + " (deploy/kubernetes/users.yaml)");
    }

    private static void assertProbe(String service, String path, Probe probe) {
        assertNotNull(probe, service + " has no probe on " + path);
        assertEquals(path, probe.getHttpGet().getPath());
        assertEquals("https", probe.getHttpGet().getPort().getStrVal());
        assertEquals("HTTPS", probe.getHttpGet().getScheme(), service + " is probed over plain HTTP");
    }

    /** The port in the service's own application.properties. */
    private static int servicePort(String service) throws IOException {
        return Integer.parseInt(properties(service).getProperty("quarkus.http.port"));
    }

    private static Properties properties(String service) throws IOException {
        String module = service.equals("dashboard") ? "deploy/dashboard" : service;
        Properties properties = new Properties();
        try (var in = Files.newBufferedReader(DIR.resolve("../..").resolve(module).resolve("src/main/resources/application.properties"))) {
            properties.load(in);
        }
        return properties;
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
