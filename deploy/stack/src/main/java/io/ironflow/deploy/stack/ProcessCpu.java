package io.ironflow.deploy.stack;

import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Map;

/**
 * Names the stack's processes by their command line and turns two readings of their CPU ticks, RSS and JIT
 * compiler threads' CPU ticks (as {@link Benchmark} takes them from /proc: {cpu, rss kB, jit}) into CPU-ms per
 * action, per process and in total. CPU time is what the benchmark compares across builds: unlike wall time it
 * hardly moves when other work shares the cores. The JIT's part of it says how warm a round was: a JVM still
 * compiling its hot paths spends that CPU on top of serving.
 */
final class ProcessCpu {

    /** USER_HZ on Linux: /proc's CPU times are in these ticks. */
    private static final double TICKS_PER_SECOND = 100;

    /** Command-line fragments naming each process the stack runs, first match wins. */
    private static final List<Map.Entry<String, String>> NAMES = List.of(
            Map.entry("api-service/target/quarkus-app", "api-service"),
            Map.entry("conductor-service/target/quarkus-app", "conductor-service"),
            Map.entry("oneview-allocator/target/quarkus-app", "oneview-allocator"),
            Map.entry("teardown-orchestrator/target/quarkus-app", "teardown-orchestrator"),
            Map.entry("dashboard/target/quarkus-app", "dashboard"),
            Map.entry("oneview-simulator/target/quarkus-app", "oneview-simulator"),
            Map.entry("ironflow-kube-mock", "kubernetes stand-in"),
            Map.entry("apicurio-registry-runner", "schema registry"),
            Map.entry("io.ironflow.deploy.stack.LocalStack", "launcher + Kafka"),
            Map.entry("io.ironflow.deploy.stack.IronflowCli up", "launcher + Kafka"),
            Map.entry("/bin/postgres", "postgres"),
            Map.entry("etcd", "etcd"));

    private ProcessCpu() {
    }

    /** The process's name in the report, or null if it is none of the stack's (the bench itself: "bench clients"). */
    static String nameOf(String command, boolean self) {
        if (self) {
            return "bench clients";
        }
        for (Map.Entry<String, String> name : NAMES) {
            if (command.contains(name.getKey())) {
                return name.getValue();
            }
        }
        return null;
    }

    static double cpuSeconds(Map<String, long[]> before, Map<String, long[]> after, String name) {
        return ticks(before, after, name, 0) / TICKS_PER_SECOND;
    }

    /** The CPU its JIT compiler threads took, in seconds (a part of {@link #cpuSeconds}). */
    static double jitSeconds(Map<String, long[]> before, Map<String, long[]> after, String name) {
        return Math.max(0, ticks(before, after, name, 2)) / TICKS_PER_SECOND;
    }

    private static long ticks(Map<String, long[]> before, Map<String, long[]> after, String name, int field) {
        return after.get(name)[field] - before.getOrDefault(name, new long[3])[field];
    }

    /** Every process's CPU over the round divided by its actions, in milliseconds. */
    static double totalMsPerAction(Map<String, long[]> before, Map<String, long[]> after, int actions) {
        double seconds = after.keySet().stream().mapToDouble(name -> cpuSeconds(before, after, name)).sum();
        return seconds * 1000 / Math.max(1, actions);
    }

    /** Every process's JIT compiler threads' CPU over the round divided by its actions, in milliseconds. */
    static double totalJitMsPerAction(Map<String, long[]> before, Map<String, long[]> after, int actions) {
        double seconds = after.keySet().stream().mapToDouble(name -> jitSeconds(before, after, name)).sum();
        return seconds * 1000 / Math.max(1, actions);
    }

    /** {"conductor-service": {"cpu_s": .., "cpu_ms_per_action": .., "rss_mb": ..}, ...}. */
    static JsonObject json(Map<String, long[]> before, Map<String, long[]> after, int actions) {
        JsonObject processes = new JsonObject();
        after.forEach((name, reading) -> {
            double seconds = cpuSeconds(before, after, name);
            JsonObject process = new JsonObject().put("cpu_s", Math.round(seconds * 100) / 100.0)
                    .put("cpu_ms_per_action", Math.round(seconds * 10_000 / Math.max(1, actions)) / 10.0)
                    .put("rss_mb", reading[1] / 1024);
            if (reading[2] > 0) { // a JVM
                process.put("jit_ms_per_action", Math.round(jitSeconds(before, after, name) * 10_000 / Math.max(1, actions)) / 10.0);
            }
            processes.put(name, process);
        });
        return processes;
    }

    /** The same as a table, with a total line. */
    static String table(Map<String, long[]> before, Map<String, long[]> after, int actions) {
        StringBuilder table = new StringBuilder(String.format("%nProcess (CPU over the measured round, creation included)"
                + "  CPU s  CPU-ms/action  of it JIT  RSS MB%n"));
        after.forEach((name, reading) -> {
            double seconds = cpuSeconds(before, after, name);
            table.append(String.format("  %-22s %32.1f %14.2f %10s %7d%n", name, seconds, seconds * 1000 / Math.max(1, actions),
                    reading[2] > 0 ? String.format("%.2f", jitSeconds(before, after, name) * 1000 / Math.max(1, actions)) : "",
                    reading[1] / 1024));
        });
        table.append(String.format("  %-22s %32s %14.2f %10.2f%n", "all", "", totalMsPerAction(before, after, actions),
                totalJitMsPerAction(before, after, actions)));
        return table.toString();
    }
}
