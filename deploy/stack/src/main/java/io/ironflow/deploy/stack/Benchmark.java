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
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code ./ironflow bench [--nodes N] [--clients C] [--warmup R] [--deadline S] [--api URL]}: drives N fresh
 * fake-hardware nodes through a node's whole life over the REST API of a running stack, as operators' tools do:
 * create, then manage, provide, active, deleted (each verb sent, then the node polled until it rests in the
 * verb's stable state) and finally {@code DELETE /v1/nodes/{uuid}}, with C concurrent clients. Prints, per
 * action and overall, actions/s and p50/p90/p99 from request to stable state (to the 204 for DELETE), errors
 * and 503s, state machine transitions/s and each process's CPU and RSS, for a round measured after R warm-up
 * rounds (default 5, each on N fresh nodes, summed up in one line); then one JSON line summing up the run.
 * A non-2xx answer, a failed state or a node not stable within S seconds (default 60) is an error and ends that
 * node's round; nothing waits without a deadline. The clients share one event loop and C keep-alive
 * connections, so the load generator takes as little as it can of the CPU it shares with the stack (its own
 * CPU is printed too).
 */
public final class Benchmark {

    /** An action on a node: a provision verb and the state it rests in after (null: DELETE), its FSM transitions. */
    private record Action(String name, String stable, int transitions) {
    }

    private static final Action CREATE = new Action("create", "enroll", 1);
    private static final List<Action> ACTIONS = List.of(new Action("manage", "manageable", 2),
            new Action("provide", "available", 2), new Action("active", "active", 2), new Action("deleted", "available", 3),
            new Action("DELETE", null, 0));
    private static final long FIRST_POLL_MS = 2;
    private static final long MAX_POLL_MS = 25;
    private static final long REQUEST_IDLE_TIMEOUT_MS = 30_000;

    private final Vertx vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(1).setWorkerPoolSize(1));
    private final HttpClient http;
    private final long deadlineMs;
    private long polls; // touched on the event loop only

    private Benchmark(URI api, int clients, long deadlineMs) {
        http = vertx.createHttpClient(new HttpClientOptions().setDefaultHost(api.getHost()).setDefaultPort(api.getPort())
                .setKeepAlive(true).setMaxPoolSize(clients).setConnectTimeout(10_000));
        this.deadlineMs = deadlineMs;
    }

    /** Runs the benchmark against {@code api} (see {@link IronflowCli.Bench} for the options). */
    static void run(String api, int nodes, int clients, int warmups, int deadlineSeconds) throws Exception {
        Benchmark benchmark = new Benchmark(URI.create(api), clients, deadlineSeconds * 1000L);
        try {
            benchmark.run(URI.create(api), nodes, clients, warmups);
        } finally {
            benchmark.vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        }
    }

    private void run(URI api, int count, int clients, int warmups) throws Exception {
        System.out.printf("%d nodes, %d clients, deadline %d s per action, against %s%n", count, clients,
                deadlineMs / 1000, api);
        for (int i = 1; i <= warmups; i++) { // the JVMs compile their hot paths under load: measure after
            Round round = round(count, clients);
            System.out.printf("  warm-up %d/%d: %.1f actions/s, p50 %.1f ms, p99 %.1f ms, %d errors, %d 503s%n", i, warmups,
                    round.actionsPerSecond(), round.percentile(0.50), round.percentile(0.99), round.errors(),
                    round.unavailable());
        }
        List<ProcessHandle> stack = stackProcesses(api.getPort());
        Map<String, long[]> cpuBefore = services(stack);
        Round round = round(count, clients);
        Map<String, long[]> cpuAfter = services(stack);

        System.out.printf("%n  %-8s %6s %6s %6s %6s %9s %9s %9s %9s %8s%n", "action", "nodes", "ok", "errors", "503s",
                "p50 ms", "p90 ms", "p99 ms", "max ms", "took s");
        System.out.println(round.create().line());
        round.actions().forEach(tally -> System.out.println(tally.line()));
        System.out.println(round.total().line());
        System.out.printf("%nActions: %d in %.2f s = %.1f actions/s (manage, provide, active, deleted, DELETE; creation"
                        + " not counted)%n", round.total().ok(), round.seconds(), round.actionsPerSecond());
        System.out.printf("FSM transitions:   %d = %.1f transitions/s%n", round.transitions(), round.transitions() / round.seconds());
        System.out.printf("Request to stable state: p50 %.1f ms, p90 %.1f ms, p99 %.1f ms, max %.1f ms%n",
                round.percentile(0.50), round.percentile(0.90), round.percentile(0.99), round.percentile(1.0));
        System.out.printf("Polls: %.1f GET /states per provision verb%n",
                round.polls() / (double) Math.max(1, round.total().ok() - round.actions().get(ACTIONS.size() - 1).ok()));
        System.out.printf("Errors: %d, 503s: %d%n", round.errors(), round.unavailable());
        round.samples().forEach(sample -> System.out.println("  " + sample));
        long ticks = 100; // USER_HZ on Linux
        System.out.println("Service (CPU over the measured round, creation included)       CPU s   RSS MB");
        for (var entry : cpuAfter.entrySet()) {
            long before = cpuBefore.getOrDefault(entry.getKey(), new long[] {0, 0})[0];
            System.out.printf("  %-22s %8.1f   %7d%n", entry.getKey(), (entry.getValue()[0] - before) / (double) ticks,
                    entry.getValue()[1] / 1024);
        }
        System.out.println(round.json(count, clients, warmups).encode());
    }

    /** Creates {@code count} fresh nodes, then takes every one through each action, wave by wave. */
    private Round round(int count, int clients) throws Exception {
        Tally creates = new Tally(CREATE.name(), count);
        List<String> nodes = Collections.synchronizedList(new ArrayList<>());
        long creating = System.nanoTime();
        await(runAll(count, clients, i -> creates.record(create()).map(nodes::add)));
        creates.took(creating);
        long pollsBefore = await(vertx.executeBlocking(() -> polls));
        List<Tally> actions = new ArrayList<>();
        long started = System.nanoTime();
        for (Action action : ACTIONS) { // every node takes one action per wave, so waves measure steady state
            long waveStart = System.nanoTime();
            List<String> wave = new ArrayList<>(nodes);
            Tally tally = new Tally(action.name(), wave.size());
            nodes.clear(); // a node whose action failed sits out the rest of the round
            await(runAll(wave.size(), clients, i -> tally.record(act(wave.get(i), action)).map(x -> nodes.add(wave.get(i)))));
            actions.add(tally.took(waveStart));
        }
        double seconds = (System.nanoTime() - started) / 1e9;
        int transitions = 0;
        for (int i = 0; i < ACTIONS.size(); i++) {
            transitions += actions.get(i).ok() * ACTIONS.get(i).transitions();
        }
        return new Round(creates, actions, Tally.sum("all", actions, seconds), seconds, transitions,
                await(vertx.executeBlocking(() -> polls)) - pollsBefore);
    }

    /** A round: its creation, its actions wave by wave and summed up, its duration, transitions and polls. */
    private record Round(Tally create, List<Tally> actions, Tally total, double seconds, int transitions, long polls) {
        double actionsPerSecond() {
            return total.ok() / seconds;
        }

        double percentile(double p) {
            return total.percentile(p);
        }

        int errors() {
            return create.errors + total.errors;
        }

        int unavailable() {
            return create.unavailable + total.unavailable;
        }

        List<String> samples() {
            List<String> samples = new ArrayList<>(create.samples);
            actions.forEach(tally -> samples.addAll(tally.samples));
            return samples.subList(0, Math.min(samples.size(), 10));
        }

        JsonObject json(int nodes, int clients, int warmups) {
            JsonObject perAction = new JsonObject();
            for (Tally tally : actions) {
                perAction.put(tally.name, new JsonObject().put("ok", tally.ok()).put("errors", tally.errors)
                        .put("503s", tally.unavailable).put("p50_ms", round1(tally.percentile(0.50)))
                        .put("p99_ms", round1(tally.percentile(0.99))));
            }
            return new JsonObject().put("bench", "ironflow").put("nodes", nodes).put("clients", clients)
                    .put("warmup", warmups).put("actions", total.ok()).put("seconds", round1(seconds))
                    .put("actions_per_s", round1(actionsPerSecond())).put("transitions_per_s", round1(transitions / seconds))
                    .put("p50_ms", round1(percentile(0.50))).put("p90_ms", round1(percentile(0.90)))
                    .put("p99_ms", round1(percentile(0.99))).put("max_ms", round1(percentile(1.0)))
                    .put("errors", errors()).put("503s", unavailable()).put("create_errors", create.errors)
                    .put("create_503s", create.unavailable).put("per_action", perAction);
        }
    }

    /** One action's outcomes over a wave: latencies (ns) of those that succeeded, errors, 503s, a few reasons. */
    private static final class Tally {
        final String name;
        final int nodes;
        final List<Long> latencies = new ArrayList<>();
        final List<String> samples = new ArrayList<>();
        int errors;
        int unavailable;
        double seconds;

        Tally(String name, int nodes) {
            this.name = name;
            this.nodes = nodes;
        }

        static Tally sum(String name, List<Tally> tallies, double seconds) {
            Tally sum = new Tally(name, tallies.get(0).nodes);
            for (Tally tally : tallies) {
                sum.latencies.addAll(tally.latencies);
                sum.errors += tally.errors;
                sum.unavailable += tally.unavailable;
            }
            Collections.sort(sum.latencies);
            sum.seconds = seconds;
            return sum;
        }

        /** Counts {@code action}'s outcome; the returned future fails as it did, once counted. */
        <T> Future<T> record(Future<Timed<T>> action) {
            return action.transform(result -> {
                synchronized (this) {
                    if (result.succeeded()) {
                        latencies.add(result.result().nanos());
                        return Future.succeededFuture(result.result().value());
                    }
                    if (result.cause() instanceof HttpStatus status && status.code == 503) {
                        unavailable++;
                    } else {
                        errors++;
                    }
                    if (samples.size() < 3) {
                        samples.add(name + ": " + result.cause().getMessage());
                    }
                    return Future.failedFuture(result.cause());
                }
            });
        }

        synchronized Tally took(long startedNanos) {
            seconds = (System.nanoTime() - startedNanos) / 1e9;
            Collections.sort(latencies);
            return this;
        }

        synchronized int ok() {
            return latencies.size();
        }

        synchronized double percentile(double p) {
            return Benchmark.percentile(latencies, p);
        }

        synchronized String line() {
            return String.format("  %-8s %6d %6d %6d %6d %9.1f %9.1f %9.1f %9.1f %8.2f", name, nodes, ok(), errors,
                    unavailable, percentile(0.50), percentile(0.90), percentile(0.99), percentile(1.0), seconds);
        }
    }

    /** A result and the nanoseconds from request to it. */
    private record Timed<T>(T value, long nanos) {
    }

    /** A non-2xx answer other than the one expected. */
    private static final class HttpStatus extends RuntimeException {
        final int code;

        HttpStatus(int code, String message) {
            super(message);
            this.code = code;
        }
    }

    /**
     * Runs {@code task} for indexes 0..count-1, at most {@code clients} at a time, all on the event loop; a task
     * that fails is counted by its tally and does not stop the others.
     */
    private Future<Void> runAll(int count, int clients, IntFunction<Future<?>> task) {
        Promise<Void> done = Promise.promise();
        int[] next = {0};
        int[] finished = {0};
        Runnable[] pump = new Runnable[1];
        pump[0] = () -> {
            while (next[0] - finished[0] < clients && next[0] < count) {
                task.apply(next[0]++).onComplete(result -> {
                    if (++finished[0] == count) {
                        done.complete();
                    } else {
                        pump[0].run();
                    }
                });
            }
        };
        vertx.runOnContext(v -> {
            if (count == 0) {
                done.complete();
            } else {
                pump[0].run();
            }
        });
        return done.future();
    }

    private static <T> T await(Future<T> future) throws Exception {
        return future.toCompletionStage().toCompletableFuture().get();
    }

    private Future<Timed<String>> create() {
        long start = System.nanoTime();
        Promise<Timed<String>> done = withDeadline("POST /v1/nodes");
        send(HttpMethod.POST, "/v1/nodes", "{\"driver\": \"fake-hardware\"}", 201)
                .onSuccess(body -> done.tryComplete(new Timed<>(body.toJsonObject().getString("uuid"), System.nanoTime() - start)))
                .onFailure(done::tryFail);
        return done.future();
    }

    /**
     * A provision verb, then polls the node as `openstack baremetal node <verb> --wait` does, or DELETE; yields
     * the nanoseconds from request to stable state (to the 204).
     */
    private Future<Timed<Void>> act(String node, Action action) {
        long start = System.nanoTime();
        Promise<Timed<Void>> done = withDeadline(node);
        if (action.stable() == null) {
            send(HttpMethod.DELETE, "/v1/nodes/" + node, null, 204)
                    .onSuccess(x -> done.tryComplete(new Timed<>(null, System.nanoTime() - start)))
                    .onFailure(done::tryFail);
        } else {
            send(HttpMethod.PUT, "/v1/nodes/" + node + "/states/provision", "{\"target\": \"" + action.name() + "\"}", 202)
                    .onSuccess(x -> poll(node, action.stable(), start, FIRST_POLL_MS, done))
                    .onFailure(done::tryFail);
        }
        return done.future();
    }

    /** A promise failed with "not done within the deadline" unless completed first. */
    private <T> Promise<T> withDeadline(String what) {
        Promise<T> done = Promise.promise();
        long timer = vertx.setTimer(deadlineMs, id -> done.tryFail(
                new IllegalStateException(what + ": not done within " + deadlineMs / 1000 + " s")));
        done.future().onComplete(x -> vertx.cancelTimer(timer));
        return done;
    }

    private void poll(String node, String stable, long start, long pause, Promise<Timed<Void>> done) {
        if (done.future().isComplete()) {
            return; // past its deadline
        }
        polls++;
        send(HttpMethod.GET, "/v1/nodes/" + node + "/states", null, 200).onFailure(done::tryFail).onSuccess(body -> {
            JsonObject state = body.toJsonObject();
            String provisionState = state.getString("provision_state");
            if (stable.equals(provisionState) && state.getValue("target_provision_state") == null) {
                done.tryComplete(new Timed<>(null, System.nanoTime() - start));
            } else if (provisionState.endsWith("failed")) {
                done.tryFail(new IllegalStateException(node + " " + provisionState + ": " + state.getString("last_error")));
            } else {
                vertx.setTimer(pause, id -> poll(node, stable, start, Math.min(pause * 2, MAX_POLL_MS), done));
            }
        });
    }

    private Future<Buffer> send(HttpMethod method, String path, String body, int expected) {
        RequestOptions request = new RequestOptions().setMethod(method).setURI(path).setIdleTimeout(REQUEST_IDLE_TIMEOUT_MS)
                .putHeader("X-OpenStack-Ironic-API-Version", "latest").putHeader("Content-Type", "application/json");
        return http.request(request)
                .compose(r -> body == null ? r.send() : r.send(body))
                .compose(response -> response.body().map(content -> {
                    if (response.statusCode() != expected) {
                        String text = content.toString();
                        throw new HttpStatus(response.statusCode(), method + " " + path + ": " + response.statusCode() + " "
                                + text.substring(0, Math.min(text.length(), 200)));
                    }
                    return content;
                }));
    }

    private static double percentile(List<Long> sorted, double p) {
        if (sorted.isEmpty()) {
            return Double.NaN;
        }
        return sorted.get(Math.max(0, Math.min(sorted.size() - 1, (int) Math.ceil(p * sorted.size()) - 1))) / 1e6;
    }

    /** One decimal; null (no figure) for the percentiles of no latencies. */
    private static Double round1(double value) {
        return Double.isNaN(value) ? null : Math.round(value * 10) / 10.0;
    }

    /**
     * The stack serving the API port on this machine: its launcher (the api-service's parent) and what that
     * started, and its PostgreSQL (daemonized, so found by the data directory the launcher's temp directory is
     * in). Empty if the API's process is not found here: then every Ironflow process on this machine is counted.
     */
    private static List<ProcessHandle> stackProcesses(int apiPort) {
        Optional<ProcessHandle> launcher = ProcessHandle.allProcesses()
                .filter(p -> command(p).contains("api-service/target/quarkus-app")
                        && command(p).contains("-Dquarkus.http.port=" + apiPort + " "))
                .findFirst().flatMap(ProcessHandle::parent);
        if (launcher.isEmpty()) {
            return List.of();
        }
        List<ProcessHandle> stack = new ArrayList<>();
        stack.add(launcher.get());
        launcher.get().descendants().forEach(stack::add);
        Matcher tmp = Pattern.compile("-Djava\\.io\\.tmpdir=(\\S+)/tmp ").matcher(command(launcher.get()));
        if (tmp.find()) {
            String postgres = "-D " + tmp.group(1) + "/postgres ";
            ProcessHandle.allProcesses().filter(p -> command(p).contains("/bin/postgres") && command(p).contains(postgres))
                    .forEach(postmaster -> {
                        stack.add(postmaster);
                        postmaster.descendants().forEach(stack::add);
                    });
        }
        return stack;
    }

    private static String command(ProcessHandle process) {
        return process.info().commandLine().orElse("");
    }

    /** CPU ticks (user + system) and RSS (kB) of each of the stack's processes (see stackProcesses), from /proc. */
    private static Map<String, long[]> services(List<ProcessHandle> stack) throws IOException {
        Map<String, long[]> found = new LinkedHashMap<>();
        List<ProcessHandle> processes = new ArrayList<>(stack.isEmpty() ? ProcessHandle.allProcesses().toList() : stack);
        processes.add(ProcessHandle.current());
        for (ProcessHandle process : processes) {
            String command = command(process);
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
