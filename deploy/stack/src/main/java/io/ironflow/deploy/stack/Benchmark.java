package io.ironflow.deploy.stack;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;

/**
 * {@code ./ironflow bench [--nodes N] [--clients C] [--warmup R] [--api URL]}: drives N fake-hardware nodes through manage,
 * provide, active and deleted over the REST API of a running stack, as operators' tools do: C concurrent
 * clients, each sending a verb and polling its node until it rests in the verb's stable state. Prints provision
 * actions/s, state machine transitions/s, p50/p99 from request to stable state, and each service's CPU and RSS,
 * for a round measured after R warm-up rounds (default 5, each on N fresh nodes, summed up in one line).
 * The clients share one event loop and C keep-alive connections, so the load generator takes as little as it
 * can of the CPU it shares with the stack (its own CPU is printed too).
 */
public final class Benchmark {

    private static final List<String[]> VERBS = List.of(new String[] {"manage", "manageable", "2"},
            new String[] {"provide", "available", "2"}, new String[] {"active", "active", "2"},
            new String[] {"deleted", "available", "3"});
    private static final long FIRST_POLL_MS = 2;
    private static final long MAX_POLL_MS = 25;

    private final Vertx vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(1).setWorkerPoolSize(1));
    private final HttpClient http;
    private long polls; // touched on the event loop only

    private Benchmark(URI api, int clients) {
        http = vertx.createHttpClient(new HttpClientOptions().setDefaultHost(api.getHost()).setDefaultPort(api.getPort())
                .setKeepAlive(true).setMaxPoolSize(clients));
    }

    public static void main(String[] args) throws Exception {
        int nodes = 1000;
        int clients = 32;
        int warmups = 5;
        String api = "http://127.0.0.1:6385";
        for (int i = 0; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--nodes" -> nodes = Integer.parseInt(args[i + 1]);
                case "--clients" -> clients = Integer.parseInt(args[i + 1]);
                case "--warmup" -> warmups = Integer.parseInt(args[i + 1]);
                case "--api" -> api = args[i + 1];
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        Benchmark benchmark = new Benchmark(URI.create(api), clients);
        try {
            benchmark.run(api, nodes, clients, warmups);
        } finally {
            benchmark.vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        }
    }

    private void run(String api, int count, int clients, int warmups) throws Exception {
        System.out.printf("%d nodes, %d clients, against %s%n", count, clients, api);
        for (int i = 1; i <= warmups; i++) { // the JVMs compile their hot paths under load: measure after
            Round round = round(count, clients);
            System.out.printf("  warm-up %d/%d: %.1f actions/s, p50 %.1f ms, p99 %.1f ms%n", i, warmups,
                    round.actionsPerSecond(), round.percentile(0.50), round.percentile(0.99));
        }
        Map<String, long[]> cpuBefore = services();
        Round round = round(count, clients);
        Map<String, long[]> cpuAfter = services();
        round.waves().forEach(System.out::println);
        System.out.printf("%nProvision actions: %d in %.2f s = %.1f actions/s%n", round.latencies().size(), round.seconds(),
                round.actionsPerSecond());
        System.out.printf("FSM transitions:   %d = %.1f transitions/s%n", round.transitions(), round.transitions() / round.seconds());
        System.out.printf("Request to stable state: p50 %.1f ms, p90 %.1f ms, p99 %.1f ms, max %.1f ms%n",
                round.percentile(0.50), round.percentile(0.90), round.percentile(0.99), round.percentile(1.0));
        System.out.printf("Polls: %.1f GET /states per action%n", round.polls() / (double) round.latencies().size());
        long ticks = 100; // USER_HZ on Linux
        System.out.println("Service (CPU over the measured round, creation included)   CPU s   RSS MB");
        for (var entry : cpuAfter.entrySet()) {
            long before = cpuBefore.getOrDefault(entry.getKey(), new long[] {0, 0})[0];
            System.out.printf("  %-18s %8.1f   %7d%n", entry.getKey(), (entry.getValue()[0] - before) / (double) ticks,
                    entry.getValue()[1] / 1024);
        }
    }

    /** One round: creates {@code count} fresh nodes, then takes every one through each verb, wave by wave. */
    private Round round(int count, int clients) throws Exception {
        List<String> nodes = Collections.synchronizedList(new ArrayList<>());
        await(runAll(count, clients, i -> create().map(nodes::add)));
        long pollsBefore = await(vertx.executeBlocking(() -> polls));
        List<Long> latencies = new ArrayList<>();
        List<String> waves = new ArrayList<>();
        long started = System.nanoTime();
        for (String[] verb : VERBS) { // every node takes one verb per wave, so waves measure steady state
            long waveStart = System.nanoTime();
            List<Long> wave = Collections.synchronizedList(new ArrayList<>());
            await(runAll(nodes.size(), clients, i -> act(nodes.get(i), verb[0], verb[1]).map(wave::add)));
            latencies.addAll(wave);
            Collections.sort(wave);
            waves.add(String.format("  %-8s %d nodes in %.2f s, p50 %.1f ms, p99 %.1f ms", verb[0], nodes.size(),
                    (System.nanoTime() - waveStart) / 1e9, percentile(wave, 0.50), percentile(wave, 0.99)));
        }
        double seconds = (System.nanoTime() - started) / 1e9;
        Collections.sort(latencies);
        int transitions = nodes.size() * VERBS.stream().mapToInt(v -> Integer.parseInt(v[2])).sum();
        return new Round(latencies, seconds, transitions, await(vertx.executeBlocking(() -> polls)) - pollsBefore, waves);
    }

    /** A round's sorted latencies (ns), its duration, its transitions and polls, and a line per wave. */
    private record Round(List<Long> latencies, double seconds, int transitions, long polls, List<String> waves) {
        double actionsPerSecond() {
            return latencies.size() / seconds;
        }

        double percentile(double p) {
            return Benchmark.percentile(latencies, p);
        }
    }

    /** Runs {@code task} for indexes 0..count-1, at most {@code clients} at a time, all on the event loop. */
    private Future<Void> runAll(int count, int clients, IntFunction<Future<?>> task) {
        Promise<Void> done = Promise.promise();
        int[] next = {0};
        int[] running = {0};
        Runnable[] pump = new Runnable[1];
        pump[0] = () -> {
            while (running[0] < clients && next[0] < count) {
                int index = next[0]++;
                running[0]++;
                task.apply(index).onComplete(result -> {
                    running[0]--;
                    if (result.failed()) {
                        done.tryFail(result.cause());
                    } else if (next[0] == count && running[0] == 0) {
                        done.tryComplete();
                    } else {
                        pump[0].run();
                    }
                });
            }
        };
        vertx.runOnContext(v -> pump[0].run());
        return done.future();
    }

    private static <T> T await(Future<T> future) throws Exception {
        return future.toCompletionStage().toCompletableFuture().get();
    }

    private Future<String> create() {
        return send(HttpMethod.POST, "/v1/nodes", "{\"driver\": \"fake-hardware\"}", 201)
                .map(body -> body.toJsonObject().getString("uuid"));
    }

    /** Sends the verb and polls the node as `openstack baremetal node <verb> --wait` does; yields nanoseconds. */
    private Future<Long> act(String node, String verb, String stable) {
        long start = System.nanoTime();
        Promise<Long> done = Promise.promise();
        send(HttpMethod.PUT, "/v1/nodes/" + node + "/states/provision", "{\"target\": \"" + verb + "\"}", 202)
                .onSuccess(x -> poll(node, stable, start, FIRST_POLL_MS, done))
                .onFailure(failure -> done.fail(new IllegalStateException(verb + " " + node + ": " + failure.getMessage())));
        return done.future();
    }

    private void poll(String node, String stable, long start, long pause, Promise<Long> done) {
        polls++;
        send(HttpMethod.GET, "/v1/nodes/" + node + "/states", null, 200).onFailure(done::fail).onSuccess(body -> {
            JsonObject state = body.toJsonObject();
            String provisionState = state.getString("provision_state");
            if (stable.equals(provisionState) && state.getValue("target_provision_state") == null) {
                done.complete(System.nanoTime() - start);
            } else if (provisionState.endsWith("failed")) {
                done.fail(new IllegalStateException(node + " failed: " + state.getString("last_error")));
            } else {
                vertx.setTimer(pause, id -> poll(node, stable, start, Math.min(pause * 2, MAX_POLL_MS), done));
            }
        });
    }

    private Future<Buffer> send(HttpMethod method, String path, String body, int expected) {
        RequestOptions request = new RequestOptions().setMethod(method).setURI(path)
                .putHeader("X-OpenStack-Ironic-API-Version", "latest").putHeader("Content-Type", "application/json");
        return http.request(request)
                .compose(r -> body == null ? r.send() : r.send(body))
                .compose(response -> response.body().map(content -> {
                    if (response.statusCode() != expected) {
                        throw new IllegalStateException(method + " " + path + ": " + response.statusCode() + " " + content);
                    }
                    return content;
                }));
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
            } else if (process.pid() == ProcessHandle.current().pid()) {
                name = "bench clients";
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
