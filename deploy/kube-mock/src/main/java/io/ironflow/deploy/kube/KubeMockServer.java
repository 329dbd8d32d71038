package io.ironflow.deploy.kube;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.concurrent.CountDownLatch;

/**
 * The Kubernetes API stand-in, as its own process: fabric8's mock server in CRUD mode speaking the standard REST
 * API over plain HTTP (so {@code curl} and {@code kubectl --server http://127.0.0.1:6443} work), with
 * {@link TeardownAwareDispatcher}'s eviction and node field selector, and {@link KubeletStandIn}.
 * <p>
 * {@code java -jar ironflow-kube-mock.jar [--host 127.0.0.1] [--port 6443] [--seed FILE.yaml]
 * [--kubelet-period-ms 1000]}, or the same as system properties ({@code -Dkube-mock.port=6443}): {@code --seed}
 * creates the objects of a (multi-document) YAML file at start.
 * Ready once {@code GET /api/v1/nodes} answers 200. Runs until killed.
 */
public final class KubeMockServer implements AutoCloseable {

    private static final java.util.logging.Logger QUIET = java.util.logging.Logger.getLogger("io.fabric8.mockwebserver");

    private final KubernetesMockServer server;
    private final KubernetesClient client;
    private final KubeletStandIn kubelets;

    private KubeMockServer(String host, int port, long kubeletPeriodMillis) throws IOException {
        server = new KubernetesMockServer(new Context(), new MockWebServer(), new HashMap<>(),
                new TeardownAwareDispatcher(), false);
        server.init(InetAddress.getByName(host), port);
        client = server.createClient();
        kubelets = new KubeletStandIn(client, kubeletPeriodMillis);
    }

    /** Starts a stand-in on {@code host:port} (0 for any free port). */
    public static KubeMockServer start(String host, int port, long kubeletPeriodMillis) throws IOException {
        return new KubeMockServer(host, port, kubeletPeriodMillis);
    }

    public int port() {
        return server.getPort();
    }

    /** Creates every object of a YAML or JSON stream (a list, or documents separated by ---). */
    public void seed(InputStream objects) {
        List<HasMetadata> items = client.load(objects).items();
        for (HasMetadata item : items) {
            client.resource(item).create();
        }
    }

    @Override
    public void close() {
        kubelets.close();
        client.close();
        server.destroy();
    }

    public static void main(String[] args) throws Exception {
        // One line per request every second (the kubelet stand-in polls) would drown the log.
        QUIET.setLevel(java.util.logging.Level.WARNING);
        // Each flag may also come as a system property (kube-mock.port, ...), for launchers that only set those.
        String host = System.getProperty("kube-mock.host", "127.0.0.1");
        int port = Integer.getInteger("kube-mock.port", 6443);
        long kubeletPeriod = Long.getLong("kube-mock.kubelet-period-ms", 1000);
        Path seed = System.getProperty("kube-mock.seed") == null ? null : Path.of(System.getProperty("kube-mock.seed"));
        for (int i = 0; i < args.length; i++) {
            String value = i + 1 < args.length ? args[i + 1] : null;
            switch (args[i]) {
                case "--host" -> host = required(args[i], value);
                case "--port" -> port = Integer.parseInt(required(args[i], value));
                case "--seed" -> seed = Path.of(required(args[i], value));
                case "--kubelet-period-ms" -> kubeletPeriod = Long.parseLong(required(args[i], value));
                default -> {
                    System.err.println("usage: kube-mock [--host H] [--port N] [--seed FILE] [--kubelet-period-ms N]");
                    System.exit(2);
                }
            }
            i++;
        }
        KubeMockServer mock = start(host, port, kubeletPeriod);
        if (seed != null) {
            try (InputStream in = Files.newInputStream(seed)) {
                mock.seed(in);
            }
        }
        System.out.println("kube-mock: Kubernetes API stand-in on http://" + host + ":" + mock.port());
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            mock.close();
            stopped.countDown();
        }));
        stopped.await();
    }

    private static String required(String flag, String value) {
        if (value == null) {
            throw new IllegalArgumentException(flag + " needs a value");
        }
        return value;
    }
}
