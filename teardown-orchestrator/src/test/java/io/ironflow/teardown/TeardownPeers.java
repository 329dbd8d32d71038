package io.ironflow.teardown;

import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.ironflow.deploy.infra.ChildJvm;
import io.ironflow.deploy.infra.EtcdCluster;
import io.ironflow.deploy.infra.Ports;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The orchestrator's real peers for its tests: the Kubernetes API stand-in (deploy/kube-mock, its own JVM) and a
 * three-member etcd cluster (Debian's etcd) whose members are named {@code node-0}, {@code node-1},
 * {@code node-2}, all on free ports under {@code target/}. Static accessors let tests arrange the cluster as an
 * operator would, through the Kubernetes API, and give the etcd cluster back whole ({@link #freshEtcd()}).
 */
public class TeardownPeers implements QuarkusTestResourceLifecycleManager {

    public static final List<String> ETCD_NODES = List.of("node-0", "node-1", "node-2");

    private static ChildJvm kubeMock;
    private static EtcdCluster etcd;
    private static KubernetesClient kubernetes;
    private static String kubernetesUrl;
    private static int apiPort;

    @Override
    public Map<String, String> start() {
        try {
            Path dir = Path.of(System.getProperty("ironflow.test.dir", "target/ironflow-test")).toAbsolutePath()
                    .resolve("peers-" + UUID.randomUUID());
            Files.createDirectories(dir);
            int[] ports = Ports.free(2);
            int port = ports[0];
            apiPort = ports[1]; // Ironflow's API, started by the tests that need it (IronflowServices)
            kubernetesUrl = "http://127.0.0.1:" + port;
            kubeMock = ChildJvm.start("kube-mock", Path.of(System.getProperty("ironflow.kube-mock.jar")), List.of("-Xmx256m"),
                    Map.of("kube-mock.port", String.valueOf(port), "kube-mock.kubelet-period-ms", "500"), dir.resolve("kube-mock.log"))
                    .awaitReady(URI.create(kubernetesUrl + "/api/v1/nodes"), Duration.ofSeconds(60));
            etcd = EtcdCluster.start(dir.resolve("etcd"), EtcdCluster.onFreePorts(ETCD_NODES));
            kubernetes = new KubernetesClientBuilder().withConfig(new ConfigBuilder().withMasterUrl(kubernetesUrl)
                    .withRequestRetryBackoffLimit(0).build()).build();
            return Map.of("ironflow.teardown.kubernetes.url", kubernetesUrl,
                    "ironflow.teardown.ironflow-api.url", "http://127.0.0.1:" + apiPort,
                    "ironflow.teardown.destroy.poll-interval", "500ms",
                    "ironflow.teardown.etcd.endpoints", etcd.endpoints(),
                    "ironflow.teardown.etcd.poll-interval", "1s",
                    "ironflow.teardown.drain.eviction-retry-interval", "1s",
                    "ironflow.teardown.kubelet-shutdown-timeout", "20s",
                    "ironflow.teardown.label-retry-interval", "1s",
                    "ironflow.teardown.resume-interval", "1s",
                    "mp.messaging.outgoing.teardown-events.interceptor.classes", HeldSends.class.getName());
        } catch (IOException | RuntimeException e) {
            stop(); // what did start must not outlive a failed start
            throw e instanceof IOException io ? new UncheckedIOException(io) : (RuntimeException) e;
        }
    }

    @Override
    public void stop() {
        IronflowServices.stop();
        if (kubernetes != null) {
            kubernetes.close();
        }
        if (etcd != null) {
            etcd.close();
        }
        if (kubeMock != null) {
            kubeMock.close();
        }
    }

    public static int apiPort() {
        return apiPort;
    }

    public static KubernetesClient kubernetes() {
        return kubernetes;
    }

    public static EtcdCluster etcd() {
        return etcd;
    }

    /** A whole three-member cluster again (after a test removed or stopped a member). */
    public static void freshEtcd() {
        try {
            etcd.restartFresh();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
