package io.ironflow.deploy.stack;

import io.ironflow.deploy.infra.EtcdCluster;
import io.ironflow.deploy.infra.Infrastructure;
import io.ironflow.deploy.infra.Ports;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The local stack's command line: where its data lives and which ports it takes (DESIGN.md's by default). */
record StackOptions(Path home, Path dataDir, Map<String, Integer> ports, Duration livenessTimeout) {

    static final String API = "api-service";
    static final String CONDUCTOR = "conductor-service";
    static final String ONEVIEW = "oneview-allocator";
    static final String TEARDOWN = "teardown-orchestrator";
    static final String KAFKA = "kafka";
    static final String KAFKA_CONTROLLER = "kafka-controller";
    static final String POSTGRES = "postgres";
    static final String REGISTRY = "registry";
    static final String KUBERNETES = "kubernetes";
    static final String ETCD = "etcd";

    static final String USAGE = """
            usage: ironflow up [--data-dir DIR] [--api-port N] [--conductor-port N] [--oneview-port N]
                               [--teardown-port N] [--kafka-port N] [--kafka-controller-port N]
                               [--postgres-port N] [--registry-port N] [--kubernetes-port N] [--etcd-port N]
                               [--liveness-timeout SECONDS]
            Starts Kafka, PostgreSQL, the schema registry, the Kubernetes API stand-in, a three-member etcd
            (clients on N, N+2, N+4; peers one above each) and the four services, and restarts a service that
            exits or whose /q/health/live stays DOWN for --liveness-timeout seconds (default 30).
            Ctrl-C stops them all.""";

    /** {@code --help} or {@code -h} anywhere: print the usage and exit 0. */
    static boolean wantsHelp(String[] args) {
        return List.of(args).contains("--help") || List.of(args).contains("-h");
    }

    private static final Map<String, Integer> DEFAULT_PORTS = defaults();

    private static Map<String, Integer> defaults() {
        Map<String, Integer> ports = new LinkedHashMap<>();
        ports.put(API, 6385);
        ports.put(CONDUCTOR, 6386);
        ports.put(ONEVIEW, 6387);
        ports.put(TEARDOWN, 6388);
        ports.put(KAFKA, 9092);
        ports.put(KAFKA_CONTROLLER, 9093);
        ports.put(POSTGRES, 15432);
        ports.put(REGISTRY, 18081);
        ports.put(KUBERNETES, 6443);
        ports.put(ETCD, 2379);
        return ports;
    }

    static StackOptions parse(String[] args) {
        Path home = Path.of(System.getProperty("ironflow.home", ".")).toAbsolutePath().normalize();
        Path dataDir = home.resolve(".ironflow");
        Map<String, Integer> ports = new LinkedHashMap<>(DEFAULT_PORTS);
        Duration livenessTimeout = Duration.ofSeconds(30);
        for (int i = 0; i < args.length; i++) {
            String flag = args[i];
            if (!flag.equals("--data-dir") && !flag.equals("--liveness-timeout") && portFlag(flag) == null) {
                throw new IllegalArgumentException("unknown option " + flag);
            }
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException(flag + " needs a value");
            }
            String value = args[++i];
            if (flag.equals("--data-dir")) {
                dataDir = Path.of(value).toAbsolutePath().normalize();
                continue;
            }
            if (flag.equals("--liveness-timeout")) {
                livenessTimeout = Duration.ofSeconds(positive(flag, value, Integer.MAX_VALUE));
                continue;
            }
            ports.put(portFlag(flag), positive(flag, value, 65535));
        }
        return new StackOptions(home, dataDir, Map.copyOf(ports), livenessTimeout);
    }

    private static int positive(String flag, String value, int max) {
        try {
            int number = Integer.parseInt(value);
            if (number < 1 || number > max) {
                throw new NumberFormatException();
            }
            return number;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(flag + " takes a number from 1 to " + max + ", not '" + value + "'");
        }
    }

    private static String portFlag(String flag) {
        return DEFAULT_PORTS.keySet().stream().filter(name -> flagFor(name).equals(flag)).findFirst().orElse(null);
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

    private static String flagFor(String name) {
        return "--" + name.replace("-service", "").replace("-allocator", "").replace("-orchestrator", "") + "-port";
    }

    Path serviceJar(String service) {
        return home.resolve(service).resolve("target/quarkus-app/quarkus-run.jar");
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

    Infrastructure.Settings infrastructureSettings() {
        return new Infrastructure.Settings(dataDir, port(KAFKA), port(KAFKA_CONTROLLER), port(POSTGRES), port(REGISTRY),
                home.resolve("deploy/schema-registry/target/apicurio-registry-runner.jar"));
    }
}
