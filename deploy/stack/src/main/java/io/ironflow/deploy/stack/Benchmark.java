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
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
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
    /**
     * The conductors' Kafka session timeout and heartbeat interval on the intents channel (conductor-service's
     * application.properties; BenchmarkSettingsTest keeps them equal).
     */
    static final int SESSION_TIMEOUT_S = 6;
    static final int HEARTBEAT_S = 1;

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
    static void run(String api, int nodes, int clients, Warmup warmup, int deadlineSeconds, Path profile, Scale scale)
            throws Exception {
        Benchmark benchmark = new Benchmark(URI.create(api), clients, deadlineSeconds * 1000L);
        try {
            benchmark.run(URI.create(api), nodes, clients, warmup, profile, scale);
        } finally {
            benchmark.vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        }
    }

    private void run(URI api, int count, int clients, Warmup warmup, Path profile, Scale scale) throws Exception {
        System.out.printf("%d nodes, %d clients, deadline %d s per action, against %s%n", count, clients,
                deadlineMs / 1000, api);
        List<ProcessHandle> stack = stackProcesses(api.getPort());
        JsonArray rounds = new JsonArray();
        JsonObject cold = null;
        int warmups = 0;
        double jitShare = 1;
        for (int i = 1; warmup.another(i, jitShare); i++) { // the JVMs compile their hot paths under load: measure after
            warmups = i;
            Map<String, long[]> before = services(stack);
            Round round = round(count, clients);
            Map<String, long[]> after = services(stack);
            double jit = ProcessCpu.totalJitMsPerAction(before, after, round.total().ok());
            double cpu = ProcessCpu.totalMsPerAction(before, after, round.total().ok());
            jitShare = cpu > 0 ? jit / cpu : 1;
            System.out.printf("  warm-up %s: %.1f actions/s, p50 %.1f ms, p99 %.1f ms, %d errors, %d 503s, %.2f CPU-ms/action"
                            + " (JIT %.2f)%n", warmup.progress(i), round.actionsPerSecond(), round.percentile(0.50),
                    round.percentile(0.99), round.errors(), round.unavailable(), cpu, jit);
            JsonObject summary = round.summary(i).put("cpu_ms_per_action", round1(cpu)).put("jit_ms_per_action", round1(jit));
            rounds.add(summary);
            if (i == 1) { // the first round on a fresh stack is the cold figure
                cold = summary.copy().put("processes", ProcessCpu.json(before, after, round.total().ok()));
            }
        }
        Map<String, long[]> cpuBefore = services(stack);
        Round round = round(count, clients);
        Map<String, long[]> cpuAfter = services(stack);
        String profileSummary = profile == null ? null : profiledRound(stack, profile, count, clients);

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
        System.out.print(ProcessCpu.table(cpuBefore, cpuAfter, round.total().ok()));
        if (profileSummary != null) {
            System.out.print(profileSummary);
        }
        if (cold == null) { // no warm-up: the measured round is the first on the stack
            cold = round.summary(1).put("processes", ProcessCpu.json(cpuBefore, cpuAfter, round.total().ok()));
        }
        JsonObject scaling = scale == null ? null : scale(api, stack, count, clients, scale);
        JsonObject json = round.json(count, clients, warmups).put("warmup_auto", warmup.auto())
                .put("cpu_ms_per_action", round1(ProcessCpu.totalMsPerAction(cpuBefore, cpuAfter, round.total().ok())))
                .put("jit_ms_per_action", round1(ProcessCpu.totalJitMsPerAction(cpuBefore, cpuAfter, round.total().ok())))
                .put("processes", ProcessCpu.json(cpuBefore, cpuAfter, round.total().ok()))
                .put("cold", cold).put("warmup_rounds", rounds).put("scale", scaling);
        System.out.println(json.encode());
    }

    /**
     * {@code --profile DIR}: one more round, on fresh nodes, with async-profiler on every JVM of the stack
     * ({@link Profiler}). It follows the measured round rather than being it, since sampling every millisecond
     * costs throughput.
     */
    private String profiledRound(List<ProcessHandle> stack, Path dir, int count, int clients) throws Exception {
        Profiler profiler = Profiler.start(stack, dir);
        Round round = round(count, clients);
        return String.format("%nProfiled round, after the measured one: %.1f actions/s, p99 %.1f ms, %d errors%s",
                round.actionsPerSecond(), round.percentile(0.99), round.errors(), profiler.stopAndSummarise());
    }

    /**
     * {@code --scale FLEET}: where the stack's throughput stops growing with conductors, and what a conductor's
     * crash or arrival costs. The node table is first topped up to FLEET nodes (as bench-list does) and the
     * list queries timed at that size; then a round with 1, 2 and 3 conductors in the group (each added one
     * started as the launcher's own, and warmed by one unmeasured round), each with actions/s, CPU-ms per action
     * and PostgreSQL's share of all CPU; then a round during which one conductor is killed with SIGKILL (its
     * partitions must move within Kafka's session timeout and every action still finish: no intent lost), and
     * rounds back to back while a conductor starts and joins.
     * After each of the last two, node history must hold no transition twice for one intent.
     */
    private JsonObject scale(URI api, List<ProcessHandle> launched, int count, int clients, Scale scale) throws Exception {
        String jdbc = "jdbc:postgresql://127.0.0.1:" + scale.port(StackOptions.POSTGRES) + "/ironflow";
        String password = StackSecrets.databaseOwnerPassword(scale.dataDir());
        System.out.printf("%nScale: the node table topped up to %d nodes%n", scale.fleet());
        JsonObject result = new JsonObject().put("fleet", scale.fleet())
                .put("list", ListBenchmark.run(scale.fleet(), 200, api.toString(), jdbc, password, false));
        List<ProcessHandle> stack = new CopyOnWriteArrayList<>(launched); // grows while a round reads it
        try (ConductorGroup group = ConductorGroup.of(stack, "127.0.0.1:" + scale.port(StackOptions.KAFKA), scale.logs(),
                StackSecrets.conductorEnvironment(scale.dataDir()),
                StackSecrets.kafkaClient(scale.dataDir(), StackOptions.CONDUCTOR))) {
            JsonArray scaling = new JsonArray();
            for (int conductors = 1; conductors <= 3; conductors++) {
                if (conductors > 1) {
                    stack.add(group.add("bench-conductor-" + conductors));
                }
                group.awaitAssigned(conductors, Duration.ofSeconds(60));
                if (conductors > 1) {
                    round(count, clients); // the new conductor compiles its hot paths: measure after
                }
                JsonObject measured = measure(stack, count, clients).put("conductors", conductors)
                        .put("partitions", new JsonArray(group.assignment()));
                scaling.add(measured);
                System.out.printf("  %d conductor(s), partitions %s: %.1f actions/s, p99 %.1f ms, %.2f CPU-ms/action,"
                                + " PostgreSQL %.0f%% of the CPU%n", conductors, group.assignment(), measured.getDouble("actions_per_s"),
                        measured.getDouble("p99_ms"), measured.getDouble("cpu_ms_per_action"), measured.getDouble("postgres_cpu_share") * 100);
            }
            double one = scaling.getJsonObject(0).getDouble("actions_per_s");
            scaling.forEach(o -> ((JsonObject) o).put("ratio", Math.round(((JsonObject) o).getDouble("actions_per_s") / one * 100) / 100.0));
            result.put("scaling", scaling);

            // A crash: the third conductor is killed while the round runs.
            ProcessHandle victim = stack.get(stack.size() - 1);
            JsonObject kill = during(stack, count, clients, () -> {
                group.kill(victim);
                long killed = System.nanoTime();
                Duration moved = group.awaitAssigned(2, Duration.ofSeconds(60));
                return new JsonObject().put("partitions_moved_s", round1((System.nanoTime() - killed) / 1e9))
                        .put("session_timeout_s", SESSION_TIMEOUT_S)
                        // the survivors hear of the expiry at their next heartbeat, then rebalance (about a second)
                        .put("within_session_timeout", moved.toMillis() <= (SESSION_TIMEOUT_S + HEARTBEAT_S + 2) * 1000L)
                        .put("partitions_after", new JsonArray(group.assignment()));
            });
            kill.put("duplicate_transitions", duplicateTransitions(jdbc, password, kill.getLong("started_ms")));
            kill.remove("cpu_ms_per_action"); // the killed process's CPU is lost with it: no CPU figures for this round
            kill.remove("postgres_cpu_share");
            kill.remove("conductor_cpu_ms_per_action");
            result.put("kill", kill);
            System.out.printf("  kill -9 of one of 3 conductors mid-round: partitions moved in %.1f s (session timeout "
                            + SESSION_TIMEOUT_S + " s, heartbeat " + HEARTBEAT_S + " s),"
                            + " %d errors (lost intents), %d transitions applied twice%n", kill.getDouble("partitions_moved_s"),
                    kill.getInteger("errors"), kill.getInteger("duplicate_transitions"));

            // An arrival: a third conductor starts while rounds run back to back, until it has joined the group.
            long addStartedMs = System.currentTimeMillis();
            long starting = System.nanoTime();
            java.util.concurrent.CompletableFuture<JsonObject> joining = java.util.concurrent.CompletableFuture.supplyAsync(() -> {
                try {
                    stack.add(group.add("bench-conductor-4"));
                    group.awaitAssigned(3, Duration.ofSeconds(60));
                    return new JsonObject().put("joined_after_s", round1((System.nanoTime() - starting) / 1e9))
                            .put("partitions_after", new JsonArray(group.assignment()));
                } catch (Exception e) {
                    throw new java.util.concurrent.CompletionException(e);
                }
            });
            int rounds = 0;
            int errors = 0;
            JsonObject last;
            do {
                last = measure(stack, count, clients);
                rounds++;
                errors += last.getInteger("errors");
            } while (!joining.isDone());
            JsonObject add = joining.get().put("rounds", rounds).put("errors", errors)
                    .put("last_round_actions_per_s", last.getDouble("actions_per_s")).put("started_ms", addStartedMs);
            add.put("duplicate_transitions", duplicateTransitions(jdbc, password, addStartedMs));
            result.put("add", add);
            System.out.printf("  a conductor joining while %d round(s) ran back to back (joined after %.1f s): partitions %s,"
                            + " %d errors, %d transitions applied twice%n", add.getInteger("rounds"), add.getDouble("joined_after_s"),
                    add.getJsonArray("partitions_after"), add.getInteger("errors"), add.getInteger("duplicate_transitions"));
        }
        return result;
    }

    /** Something that happens to the group while a round runs; its figures go into the round's. */
    @FunctionalInterface
    private interface Disturbance {
        JsonObject apply() throws Exception;
    }

    /** A round of {@code count} nodes with {@code disturbance} set off two seconds into it. */
    private JsonObject during(List<ProcessHandle> stack, int count, int clients, Disturbance disturbance) throws Exception {
        long startedMs = System.currentTimeMillis();
        java.util.concurrent.CompletableFuture<JsonObject> round = java.util.concurrent.CompletableFuture.supplyAsync(() -> {
            try {
                return measure(stack, count, clients);
            } catch (Exception e) {
                throw new java.util.concurrent.CompletionException(e);
            }
        });
        Thread.sleep(2_000);
        JsonObject happened = disturbance.apply();
        return round.get().mergeIn(happened).put("started_ms", startedMs);
    }

    /** One round's figures, and the share of all CPU PostgreSQL took. */
    private JsonObject measure(List<ProcessHandle> stack, int count, int clients) throws Exception {
        Map<String, long[]> before = services(stack);
        Round round = round(count, clients);
        Map<String, long[]> after = services(stack);
        double all = after.keySet().stream().mapToDouble(name -> ProcessCpu.cpuSeconds(before, after, name)).sum();
        double postgres = after.containsKey("postgres") ? ProcessCpu.cpuSeconds(before, after, "postgres") : 0;
        return round.summary(0).put("cpu_ms_per_action", round1(ProcessCpu.totalMsPerAction(before, after, round.total().ok())))
                .put("postgres_cpu_share", Math.round(postgres / Math.max(all, 1e-9) * 100) / 100.0)
                .put("conductor_cpu_ms_per_action", round1(after.containsKey("conductor-service")
                        ? ProcessCpu.cpuSeconds(before, after, "conductor-service") * 1000 / Math.max(1, round.total().ok()) : 0))
                .put("max_ms", round1(round.percentile(1.0)));
    }

    /**
     * Transitions recorded twice for one intent in node history since {@code sinceMs} (a transition applied
     * twice); waits until the history, projected from the node events, has stopped growing.
     */
    private static int duplicateTransitions(String jdbc, String password, long sinceMs) throws Exception {
        try (Connection db = DriverManager.getConnection(jdbc, "ironflow", password)) {
            long rows = -1;
            for (int i = 0; i < 60; i++) { // the projection trails the round by the relay's and consumer's lag
                long now = count(db, "SELECT count(*) FROM node_history WHERE created_at >= to_timestamp(" + sinceMs / 1000.0 + ")");
                if (now == rows) {
                    break;
                }
                rows = now;
                Thread.sleep(1_000);
            }
            return (int) count(db, "SELECT count(*) FROM (SELECT 1 FROM node_history WHERE intent_id IS NOT NULL"
                    + " AND created_at >= to_timestamp(" + sinceMs / 1000.0 + ") GROUP BY intent_id, node_uuid, from_state,"
                    + " event, to_state HAVING count(*) > 1) twice");
        }
    }

    private static long count(Connection db, String sql) throws Exception {
        try (Statement statement = db.createStatement(); ResultSet rows = statement.executeQuery(sql)) {
            rows.next();
            return rows.getLong(1);
        }
    }

    /** {@code --scale}'s settings: the fleet size, the stack's ports (defaults plus an offset), where logs go. */
    record Scale(int fleet, int portOffset, Path logs, Path dataDir) {
        int port(String name) {
            return StackOptions.defaultPorts().get(name) + portOffset;
        }
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

        /** One warm-up round in the JSON line: its number, actions/s, p50/p99 and errors. */
        JsonObject summary(int number) {
            return new JsonObject().put("round", number).put("actions", total.ok()).put("seconds", round1(seconds))
                    .put("actions_per_s", round1(actionsPerSecond())).put("p50_ms", round1(percentile(0.50)))
                    .put("p99_ms", round1(percentile(0.99))).put("errors", errors()).put("503s", unavailable());
        }

        JsonObject json(int nodes, int clients, int warmups) {
            JsonObject perAction = new JsonObject();
            for (Tally tally : actions) {
                perAction.put(tally.name, new JsonObject().put("ok", tally.ok()).put("errors", tally.errors)
                        .put("503s", tally.unavailable).put("p50_ms", round1(tally.percentile(0.50)))
                        .put("p99_ms", round1(tally.percentile(0.99))));
            }
            return new JsonObject().put("bench", "ironflow").put("jdk", Runtime.version().toString())
                    .put("nodes", nodes).put("clients", clients)
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

    /**
     * CPU ticks (user + system) and RSS (kB) of each of the stack's processes (see stackProcesses) and of their
     * children as they are now (PostgreSQL forks a backend per new connection), from /proc. PostgreSQL's figures
     * include its exited backends' CPU (reaped by the postmaster: its children's times) and count its shared
     * memory once (PSS, shared pages divided among the processes sharing them, instead of RSS).
     */
    private static Map<String, long[]> services(List<ProcessHandle> stack) throws IOException {
        // {CPU ticks, RSS kB, JIT compiler threads' CPU ticks}
        Map<String, long[]> found = new LinkedHashMap<>();
        Map<Long, ProcessHandle> processes = new LinkedHashMap<>();
        for (ProcessHandle process : stack.isEmpty() ? ProcessHandle.allProcesses().toList() : stack) {
            processes.put(process.pid(), process);
            process.descendants().forEach(child -> processes.put(child.pid(), child));
        }
        processes.put(ProcessHandle.current().pid(), ProcessHandle.current());
        for (ProcessHandle process : processes.values()) {
            String name = ProcessCpu.nameOf(command(process), process.pid() == ProcessHandle.current().pid());
            if (name == null) {
                continue;
            }
            try {
                String[] stat = statFields(Files.readString(Path.of("/proc", String.valueOf(process.pid()), "stat")));
                long cpu = Long.parseLong(stat[11]) + Long.parseLong(stat[12]);
                boolean postgres = name.equals("postgres");
                if (postgres) {
                    cpu += Long.parseLong(stat[13]) + Long.parseLong(stat[14]);
                }
                long rss = Files.readAllLines(Path.of("/proc", String.valueOf(process.pid()), postgres ? "smaps_rollup" : "status"))
                        .stream().filter(l -> l.startsWith(postgres ? "Pss:" : "VmRSS:"))
                        .mapToLong(l -> Long.parseLong(l.replaceAll("\\D", ""))).sum();
                long[] total = found.computeIfAbsent(name, k -> new long[3]);
                total[0] += cpu;
                total[1] += rss;
                total[2] += postgres ? 0 : compilerTicks(process.pid());
            } catch (IOException | RuntimeException e) {
                // the process ended meanwhile
            }
        }
        return found;
    }

    /**
     * A /proc stat line's fields after the command name (state first, so utime is [11] and stime [12]); the name
     * is cut at its last ')', since a name may hold spaces and parentheses.
     */
    private static String[] statFields(String stat) {
        return stat.substring(stat.lastIndexOf(") ") + 2).split(" ");
    }

    /**
     * The CPU ticks of a JVM's JIT compiler threads (HotSpot names them "C1 CompilerThread<n>" and "C2 ..."; the
     * kernel keeps 15 characters): 0 for a process that has none. On two cores a JVM runs one of each, which
     * live as long as the JVM; on larger machines the JVM starts and stops extra ones as the queue grows and
     * shrinks, and an extra one that stopped during a round takes its CPU with it (this undercounts then).
     */
    static long compilerTicks(long pid) {
        long ticks = 0;
        try (var tasks = Files.list(Path.of("/proc", String.valueOf(pid), "task"))) {
            for (Path task : (Iterable<Path>) tasks::iterator) {
                try {
                    String stat = Files.readString(task.resolve("stat"));
                    String comm = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
                    if (comm.startsWith("C1 CompilerThre") || comm.startsWith("C2 CompilerThre")) {
                        String[] fields = statFields(stat);
                        ticks += Long.parseLong(fields[11]) + Long.parseLong(fields[12]); // utime, stime
                    }
                } catch (IOException | RuntimeException e) {
                    // the thread ended meanwhile
                }
            }
        } catch (IOException e) {
            return 0; // the process ended meanwhile
        }
        return ticks;
    }
}
