package io.ironflow.deploy.infra;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * A real etcd cluster on loopback, one {@code etcd} process (Debian's {@code etcd-server}) per member, each named
 * after an Ironflow node so that a node and its member are linked by name. Data and logs live under one directory.
 * Ready once every member's {@code /health} says {@code "true"}. {@link #restartFresh()} gives tests a whole
 * cluster again after one removed a member (a removed member stops itself and cannot rejoin with its data).
 */
public final class EtcdCluster implements AutoCloseable {

    /** One member: its name and its client and peer ports on 127.0.0.1. */
    public record Member(String name, int clientPort, int peerPort) {
        public String clientUrl() {
            return "http://127.0.0.1:" + clientPort;
        }

        public String peerUrl() {
            return "http://127.0.0.1:" + peerPort;
        }
    }

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    private final Path dir;
    private final List<Member> members;
    private final Map<String, Process> processes = new LinkedHashMap<>();
    private int generation;

    private EtcdCluster(Path dir, List<Member> members) {
        this.dir = dir;
        this.members = List.copyOf(members);
    }

    /** Members named {@code names} on free ports. */
    public static List<Member> onFreePorts(List<String> names) throws IOException {
        int[] ports = Ports.free(names.size() * 2);
        List<Member> members = new ArrayList<>();
        for (int i = 0; i < names.size(); i++) {
            members.add(new Member(names.get(i), ports[2 * i], ports[2 * i + 1]));
        }
        return members;
    }

    /** Starts the cluster and waits up to 60 s for every member to be healthy. */
    public static EtcdCluster start(Path dir, List<Member> members) throws IOException {
        EtcdCluster cluster = new EtcdCluster(dir, members);
        try {
            cluster.startAll();
        } catch (IOException | RuntimeException e) {
            cluster.close();
            throw e;
        }
        return cluster;
    }

    /** The etcd binary: {@code -Dironflow.etcd.binary}, else {@code etcd} on the PATH. */
    public static String binary() {
        return System.getProperty("ironflow.etcd.binary", "etcd");
    }

    public List<Member> members() {
        return members;
    }

    /** The client URLs, comma-separated (etcdctl's {@code --endpoints}). */
    public String endpoints() {
        return members.stream().map(Member::clientUrl).collect(Collectors.joining(","));
    }

    /** Stops every member, deletes their data and starts a new cluster (a new cluster token) on the same ports. */
    public void restartFresh() throws IOException {
        stopAll();
        startAll();
    }

    /** Stops one member's process (SIGTERM), as a machine that went down: the others keep its membership. */
    public void stop(String name) {
        Process process = processes.remove(name);
        if (process != null) {
            terminate(process);
        }
    }

    private void startAll() throws IOException {
        generation++;
        Path data = dir.resolve("cluster-" + generation);
        Files.createDirectories(data);
        String initialCluster = members.stream().map(m -> m.name() + "=" + m.peerUrl()).collect(Collectors.joining(","));
        for (Member member : members) {
            List<String> command = List.of(binary(), "--name", member.name(),
                    "--data-dir", data.resolve(member.name()).toString(),
                    "--listen-client-urls", member.clientUrl(), "--advertise-client-urls", member.clientUrl(),
                    "--listen-peer-urls", member.peerUrl(), "--initial-advertise-peer-urls", member.peerUrl(),
                    "--initial-cluster", initialCluster, "--initial-cluster-state", "new",
                    "--initial-cluster-token", "ironflow-" + generation + "-" + ProcessHandle.current().pid());
            Process process;
            try {
                process = new ProcessBuilder(command).redirectErrorStream(true)
                        .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve(member.name() + ".log").toFile())).start();
            } catch (IOException e) {
                throw new IOException("cannot run " + binary() + " (apt-get install etcd-server): " + e.getMessage(), e);
            }
            processes.put(member.name(), process);
        }
        awaitHealthy(Duration.ofSeconds(60));
    }

    private void awaitHealthy(Duration timeout) throws IOException {
        Instant deadline = Instant.now().plus(timeout);
        for (Member member : members) {
            HttpRequest request = HttpRequest.newBuilder(URI.create(member.clientUrl() + "/health"))
                    .timeout(Duration.ofSeconds(2)).build();
            while (true) {
                Process process = processes.get(member.name());
                if (process == null || !process.isAlive()) {
                    throw new IOException("etcd member " + member.name() + " exited; see " + dir.resolve(member.name() + ".log"));
                }
                try {
                    if (HTTP.send(request, HttpResponse.BodyHandlers.ofString()).body().contains("\"true\"")) {
                        break;
                    }
                } catch (IOException notYet) {
                    // not listening yet
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IOException(e);
                }
                if (Instant.now().isAfter(deadline)) {
                    throw new IOException("etcd member " + member.name() + " not healthy within " + timeout.toSeconds() + " s");
                }
                try {
                    Thread.sleep(200);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IOException(e);
                }
            }
        }
    }

    private void stopAll() {
        new ArrayList<>(processes.keySet()).forEach(this::stop);
    }

    private static void terminate(Process process) {
        process.destroy();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        stopAll();
    }
}
