package io.ironflow.deploy.stack;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * {@code ./ironflow bench [--nodes N] [--clients C] [--api URL]}: drives N fake-hardware nodes through manage,
 * provide, active and deleted over the REST API of a running stack, as operators' tools do: C concurrent
 * clients, each sending a verb and polling its node until it rests in the verb's stable state. Prints provision
 * actions/s, state machine transitions/s, p50/p99 from request to stable state, and each service's CPU and RSS.
 */
public final class Benchmark {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final List<String[]> VERBS = List.of(new String[] {"manage", "manageable", "2"},
            new String[] {"provide", "available", "2"}, new String[] {"active", "active", "2"},
            new String[] {"deleted", "available", "3"});

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private final String api;

    private Benchmark(String api) {
        this.api = api;
    }

    public static void main(String[] args) throws Exception {
        int nodes = 1000;
        int clients = 32;
        String api = "http://127.0.0.1:6385";
        for (int i = 0; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--nodes" -> nodes = Integer.parseInt(args[i + 1]);
                case "--clients" -> clients = Integer.parseInt(args[i + 1]);
                case "--api" -> api = args[i + 1];
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        new Benchmark(api).run(nodes, clients);
    }

    private void run(int count, int clients) throws Exception {
        Map<String, long[]> cpuBefore = services();
        ExecutorService pool = Executors.newFixedThreadPool(clients);
        System.out.printf("Creating %d nodes with %d clients against %s ...%n", count, clients, api);
        List<String> nodes = Collections.synchronizedList(new ArrayList<>());
        runAll(pool, count, i -> nodes.add(create()));
        ConcurrentLinkedQueue<Long> latencies = new ConcurrentLinkedQueue<>();
        long started = System.nanoTime();
        for (String[] verb : VERBS) { // every node takes one verb per wave, so waves measure steady state
            long waveStart = System.nanoTime();
            runAll(pool, nodes.size(), i -> latencies.add(act(nodes.get(i), verb[0], verb[1])));
            System.out.printf("  %-8s %d nodes in %.2f s%n", verb[0], nodes.size(), (System.nanoTime() - waveStart) / 1e9);
        }
        double seconds = (System.nanoTime() - started) / 1e9;
        pool.shutdown();
        List<Long> sorted = new ArrayList<>(latencies);
        Collections.sort(sorted);
        int actions = sorted.size();
        int transitions = nodes.size() * VERBS.stream().mapToInt(v -> Integer.parseInt(v[2])).sum();
        System.out.printf("%nProvision actions: %d in %.2f s = %.1f actions/s%n", actions, seconds, actions / seconds);
        System.out.printf("FSM transitions:   %d = %.1f transitions/s%n", transitions, transitions / seconds);
        System.out.printf("Request to stable state: p50 %.1f ms, p99 %.1f ms, max %.1f ms%n",
                percentile(sorted, 0.50), percentile(sorted, 0.99), sorted.get(sorted.size() - 1) / 1e6);
        Map<String, long[]> cpuAfter = services();
        long ticks = 100; // USER_HZ on Linux
        System.out.println("Service            CPU s (run)   RSS MB");
        for (var entry : cpuAfter.entrySet()) {
            long before = cpuBefore.getOrDefault(entry.getKey(), new long[] {0, 0})[0];
            System.out.printf("  %-18s %8.1f   %7d%n", entry.getKey(), (entry.getValue()[0] - before) / (double) ticks,
                    entry.getValue()[1] / 1024);
        }
    }

    private interface Task {
        void run(int index) throws Exception;
    }

    private static void runAll(ExecutorService pool, int count, Task task) throws Exception {
        List<Future<?>> futures = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            int index = i;
            futures.add(pool.submit(() -> {
                task.run(index);
                return null;
            }));
        }
        for (Future<?> future : futures) {
            future.get();
        }
    }

    private String create() throws Exception {
        HttpResponse<String> response = send("POST", "/v1/nodes", "{\"driver\": \"fake-hardware\"}");
        if (response.statusCode() != 201) {
            throw new IllegalStateException("create: " + response.statusCode() + " " + response.body());
        }
        return JSON.readTree(response.body()).get("uuid").asText();
    }

    /** Sends the verb and polls the node as `openstack baremetal node <verb> --wait` does; returns nanoseconds. */
    private long act(String node, String verb, String stable) throws Exception {
        long start = System.nanoTime();
        HttpResponse<String> response = send("PUT", "/v1/nodes/" + node + "/states/provision", "{\"target\": \"" + verb + "\"}");
        if (response.statusCode() != 202) {
            throw new IllegalStateException(verb + " " + node + ": " + response.statusCode() + " " + response.body());
        }
        long pause = 2;
        while (true) {
            JsonNode state = JSON.readTree(send("GET", "/v1/nodes/" + node + "/states", null).body());
            if (stable.equals(state.path("provision_state").asText()) && state.path("target_provision_state").isNull()) {
                return System.nanoTime() - start;
            }
            if (state.path("provision_state").asText().endsWith("failed")) {
                throw new IllegalStateException(node + " failed: " + state.path("last_error").asText());
            }
            Thread.sleep(pause);
            pause = Math.min(pause * 2, 25);
        }
    }

    private HttpResponse<String> send(String method, String path, String body) throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(api + path))
                .header("X-OpenStack-Ironic-API-Version", "latest").header("Content-Type", "application/json");
        request.method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static double percentile(List<Long> sorted, double p) {
        return sorted.get(Math.min(sorted.size() - 1, (int) Math.ceil(p * sorted.size()) - 1)) / 1e6;
    }

    /** CPU ticks (user + system) and RSS (kB) of each Ironflow process on this machine, from /proc. */
    private static Map<String, long[]> services() throws IOException {
        Map<String, long[]> found = new LinkedHashMap<>();
        for (ProcessHandle process : ProcessHandle.allProcesses().toList()) {
            String command = process.info().commandLine().orElse("");
            String name = null;
            for (String service : List.of("api-service", "conductor-service", "oneview-allocator", "teardown-orchestrator")) {
                if (command.contains(service + "/target/quarkus-app")) {
                    name = service;
                }
            }
            if (command.contains("apicurio-registry-runner")) {
                name = "schema registry";
            } else if (command.contains("io.ironflow.deploy.stack.LocalStack")) {
                name = "launcher + Kafka";
            } else if (command.contains("/bin/postgres")) {
                name = "postgres";
            }
            if (name == null) {
                continue;
            }
            try {
                String[] stat = Files.readString(Path.of("/proc", String.valueOf(process.pid()), "stat")).split("\\) ")[1].split(" ");
                long cpu = Long.parseLong(stat[11]) + Long.parseLong(stat[12]);
                long rss = Files.readAllLines(Path.of("/proc", String.valueOf(process.pid()), "status")).stream()
                        .filter(l -> l.startsWith("VmRSS:")).mapToLong(l -> Long.parseLong(l.replaceAll("\\D", ""))).sum();
                long[] total = found.computeIfAbsent(name, k -> new long[2]);
                total[0] += cpu;
                total[1] += rss;
            } catch (IOException | RuntimeException e) {
                // the process ended meanwhile
            }
        }
        return found;
    }
}
