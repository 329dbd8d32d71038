package io.ironflow.deploy.stack;

import io.ironflow.deploy.infra.EtcdCluster;
import io.ironflow.deploy.infra.Infrastructure;
import io.ironflow.deploy.infra.KafkaAccess;
import io.ironflow.deploy.infra.KafkaSecurity;
import io.ironflow.deploy.infra.Ports;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What {@code ironflow up} was asked for: where its data lives, which ports it takes (DESIGN.md's by default), and
 * how callers authenticate ({@code auth}; {@code usersFile} and {@code rolesFile} are the operator's, or null;
 * {@code tokenLifetime} is how long jwt tokens for the operators live), and
 * whether Kafka and the registry are secure ({@code secure} null: they are open, on loopback).
 */
record StackOptions(Path home, Path dataDir, Map<String, Integer> ports, Duration livenessTimeout,
        StackAuth.AuthStrategy auth, Path usersFile, Path rolesFile, Duration tokenLifetime, KafkaSecurity.Options secure) {

    static final String API = "api-service";
    static final String CONDUCTOR = "conductor-service";
    static final String ONEVIEW = "oneview-allocator";
    static final String TEARDOWN = "teardown-orchestrator";
    static final String DASHBOARD = "dashboard";
    static final String ONEVIEW_SIMULATOR = "oneview-simulator";
    static final String KAFKA = "kafka";
    static final String KAFKA_CONTROLLER = "kafka-controller";
    static final String POSTGRES = "postgres";
    static final String REGISTRY = "registry";
    static final String KUBERNETES = "kubernetes";
    static final String ETCD = "etcd";

    private static final Map<String, Integer> DEFAULT_PORTS = defaults();

    private static Map<String, Integer> defaults() {
        Map<String, Integer> ports = new LinkedHashMap<>();
        ports.put(API, 6385);
        ports.put(CONDUCTOR, 6386);
        ports.put(ONEVIEW, 6387);
        ports.put(TEARDOWN, 6388);
        ports.put(ONEVIEW_SIMULATOR, 6389);
        ports.put(DASHBOARD, 6390);
        ports.put(KAFKA, 9092);
        ports.put(KAFKA_CONTROLLER, 9093);
        ports.put(POSTGRES, 15432);
        ports.put(REGISTRY, 18081);
        ports.put(KUBERNETES, 6443);
        ports.put(ETCD, 2379);
        return ports;
    }

    /** Every component's port by name, as DESIGN.md gives them; each has a flag ({@link #flagFor}). */
    static Map<String, Integer> defaultPorts() {
        return DEFAULT_PORTS;
    }

    /** The repository the launcher runs from ({@code -Dironflow.home}, else the working directory). */
    static Path defaultHome() {
        return Path.of(System.getProperty("ironflow.home", ".")).toAbsolutePath().normalize();
    }

    int port(String name) {
        return ports.get(name);
    }

    /** A one-line message naming the first port something else already holds, or null. */
    String firstPortInUse() {
        for (String name : DEFAULT_PORTS.keySet()) {
            int port = ports.get(name);
            if (Ports.inUse(port)) {
                return "port " + port + " (" + name + ") is already in use on 127.0.0.1; stop what holds it or choose"
                        + " another port with " + flagFor(name) + ".";
            }
        }
        return null;
    }

    static String flagFor(String name) {
        return "--" + name.replace("-service", "").replace("-allocator", "").replace("-orchestrator", "") + "-port";
    }

    Path serviceJar(String service) {
        return home.resolve(switch (service) {
            case DASHBOARD -> "deploy/dashboard";
            case ONEVIEW_SIMULATOR -> "deploy/oneview-simulator";
            default -> service;
        }).resolve("target/quarkus-app/quarkus-run.jar");
    }

    Path kubeMockJar() {
        return home.resolve("deploy/kube-mock/target/ironflow-kube-mock.jar");
    }

    /** The Kubernetes stand-in's objects at start: three Nodes (node-0..2, as the etcd members) and their pods. */
    Path kubeMockSeed() {
        return home.resolve("deploy/kube-mock/local-stack-seed.yaml");
    }

    /** The etcd members node-0, node-1, node-2: clients on N, N+2, N+4, peers one port above each (2379..2384). */
    List<EtcdCluster.Member> etcdMembers() {
        int base = port(ETCD);
        return List.of(new EtcdCluster.Member("node-0", base, base + 1), new EtcdCluster.Member("node-1", base + 2, base + 3),
                new EtcdCluster.Member("node-2", base + 4, base + 5));
    }

    /** Each service's Kafka principal in the secure stack (the simulator has none: it is no Kafka client). */
    static String kafkaPrincipal(String service) {
        return switch (service) {
            case API -> KafkaAccess.API;
            case CONDUCTOR -> KafkaAccess.CONDUCTOR;
            case ONEVIEW -> KafkaAccess.ONEVIEW;
            case TEARDOWN -> KafkaAccess.TEARDOWN;
            case DASHBOARD -> KafkaAccess.DASHBOARD;
            default -> null;
        };
    }

    Infrastructure.Settings infrastructureSettings() {
        return new Infrastructure.Settings(dataDir, port(KAFKA), port(KAFKA_CONTROLLER), port(POSTGRES), port(REGISTRY),
                home.resolve("deploy/schema-registry/target/apicurio-registry-runner.jar"), true);
    }
}
