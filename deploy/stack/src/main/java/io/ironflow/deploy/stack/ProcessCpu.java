package io.ironflow.deploy.stack;

import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Map;

/**
 * Names the stack's processes by their command line and turns two readings of their CPU ticks and RSS (as
 * {@link Benchmark} takes them from /proc) into CPU-ms per action, per process and in total. CPU time is what
 * the benchmark compares across builds: unlike wall time it hardly moves when other work shares the cores.
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
        return (after.get(name)[0] - before.getOrDefault(name, new long[] {0, 0})[0]) / TICKS_PER_SECOND;
    }

    /** Every process's CPU over the round divided by its actions, in milliseconds. */
    static double totalMsPerAction(Map<String, long[]> before, Map<String, long[]> after, int actions) {
        double seconds = after.keySet().stream().mapToDouble(name -> cpuSeconds(before, after, name)).sum();
        return seconds * 1000 / Math.max(1, actions);
    }

    /** {"conductor-service": {"cpu_s": .., "cpu_ms_per_action": .., "rss_mb": ..}, ...}. */
    static JsonObject json(Map<String, long[]> before, Map<String, long[]> after, int actions) {
        JsonObject processes = new JsonObject();
        after.forEach((name, reading) -> {
            double seconds = cpuSeconds(before, after, name);
            processes.put(name, new JsonObject().put("cpu_s", Math.round(seconds * 100) / 100.0)
                    .put("cpu_ms_per_action", Math.round(seconds * 10_000 / Math.max(1, actions)) / 10.0)
                    .put("rss_mb", reading[1] / 1024));
        });
        return processes;
    }

    /** The same as a table, with a total line. */
    static String table(Map<String, long[]> before, Map<String, long[]> after, int actions) {
        StringBuilder table = new StringBuilder(String.format("%nProcess (CPU over the measured round, creation included)"
                + "  CPU s  CPU-ms/action  RSS MB%n"));
        after.forEach((name, reading) -> {
            double seconds = cpuSeconds(before, after, name);
            table.append(String.format("  %-22s %32.1f %14.2f %7d%n", name, seconds, seconds * 1000 / Math.max(1, actions),
                    reading[1] / 1024));
        });
        table.append(String.format("  %-22s %32s %14.2f%n", "all", "", totalMsPerAction(before, after, actions)));
        return table.toString();
    }
}
