package io.ironflow.deploy.stack;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordingFile;

/**
 * {@code ./ironflow bench --profile DIR}: records a round of its own, after the measured one, with Java Flight
 * Recorder (built into the JDK, started and stopped on the running JVMs with {@code jcmd}, so the stack needs no
 * flag) and sums up where each JVM's CPU samples fall: by layer (the first frame of a sample's stack that belongs to a known library,
 * e.g. Hibernate, the PostgreSQL client, Kafka, Avro, logging) and by hottest methods. The recordings stay in DIR
 * for JDK Mission Control or {@code jfr print}. A JVM that cannot be recorded is named and skipped.
 */
final class Profiler {

    private static final String RECORDING = "ironflow-bench";
    private static final long JCMD_TIMEOUT_S = 30;

    /**
     * Package prefixes by layer, most specific first: a sample counts for the layer of the innermost frame that
     * matches one, so "hibernate" is time spent in Hibernate's code and what it calls that is not listed itself.
     */
    private static final List<Map.Entry<String, String>> LAYERS = List.of(
            Map.entry("org.jboss.logging", "logging"), Map.entry("org.jboss.logmanager", "logging"),
            Map.entry("io.micrometer", "metrics"), Map.entry("io.opentelemetry", "tracing"),
            Map.entry("org.apache.avro", "avro"), Map.entry("io.apicurio", "registry serde"),
            Map.entry("com.fasterxml.jackson", "json"), Map.entry("io.vertx.core.json", "json"),
            Map.entry("org.hibernate", "hibernate"), Map.entry("io.vertx.pgclient", "postgres client"),
            Map.entry("io.vertx.sqlclient", "postgres client"), Map.entry("org.apache.kafka", "kafka client"),
            Map.entry("io.smallrye.reactive.messaging", "reactive messaging"), Map.entry("io.smallrye.mutiny", "mutiny"),
            Map.entry("io.netty", "netty"), Map.entry("io.vertx", "vert.x"), Map.entry("io.quarkus", "quarkus"),
            Map.entry("io.ironflow", "ironflow"), Map.entry("java.", "jdk"), Map.entry("jdk.", "jdk"),
            Map.entry("sun.", "jdk"));

    private final Map<String, Long> pids;
    private final Path dir;

    private Profiler(Map<String, Long> pids, Path dir) {
        this.pids = pids;
        this.dir = dir;
    }

    /** Starts a recording on every JVM of {@code stack} (by its report name), writing into {@code dir}. */
    static Profiler start(List<ProcessHandle> stack, Path dir) throws IOException {
        Files.createDirectories(dir);
        Map<String, Long> pids = new LinkedHashMap<>();
        for (ProcessHandle process : stack) {
            String command = process.info().commandLine().orElse("");
            String name = ProcessCpu.nameOf(command, false);
            if (name != null && command.contains("java") && !pids.containsKey(name)) {
                String file = dir.resolve(name.replaceAll("\\W+", "-") + ".jfr").toAbsolutePath().toString();
                if (jcmd(process.pid(), "JFR.start", "name=" + RECORDING, "settings=profile", "filename=" + file)) {
                    pids.put(name, process.pid());
                }
            }
        }
        return new Profiler(pids, dir);
    }

    /** Stops the recordings and returns the summary as text. */
    String stopAndSummarise() throws IOException {
        StringBuilder out = new StringBuilder(String.format("%nProfile (JFR, %s)%n", dir));
        for (var entry : pids.entrySet()) {
            jcmd(entry.getValue(), "JFR.stop", "name=" + RECORDING);
            Path file = dir.resolve(entry.getKey().replaceAll("\\W+", "-") + ".jfr");
            if (Files.exists(file)) {
                out.append(summarise(entry.getKey(), file));
            }
        }
        return out.toString();
    }

    /** CPU samples by layer and the ten hottest methods (self time) of one recording. */
    static String summarise(String name, Path file) throws IOException {
        Map<String, Integer> layers = new HashMap<>();
        Map<String, Integer> methods = new HashMap<>();
        int samples = 0;
        for (RecordedEvent event : RecordingFile.readAllEvents(file)) {
            if (!event.getEventType().getName().equals("jdk.ExecutionSample") || event.getStackTrace() == null) {
                continue;
            }
            List<RecordedFrame> frames = event.getStackTrace().getFrames();
            if (frames.isEmpty()) {
                continue;
            }
            samples++;
            methods.merge(method(frames.get(0)), 1, Integer::sum);
            layers.merge(layer(frames), 1, Integer::sum);
        }
        StringBuilder out = new StringBuilder(String.format("  %s: %d CPU samples%n    by layer:", name, samples));
        int total = Math.max(1, samples);
        top(layers, 12).forEach(e -> out.append(String.format(" %s %.0f%%,", e.getKey(), 100.0 * e.getValue() / total)));
        out.setLength(out.length() - 1);
        out.append(String.format("%n    hottest methods (self):%n"));
        top(methods, 10).forEach(e -> out.append(String.format("      %5.1f%%  %s%n", 100.0 * e.getValue() / total, e.getKey())));
        return out.toString();
    }

    private static String layer(List<RecordedFrame> frames) {
        for (RecordedFrame frame : frames) { // innermost first
            String type = frame.getMethod().getType().getName();
            for (Map.Entry<String, String> layer : LAYERS) {
                if (type.startsWith(layer.getKey()) && !layer.getValue().equals("jdk")) {
                    return layer.getValue();
                }
            }
        }
        return "jdk";
    }

    private static String method(RecordedFrame frame) {
        return frame.getMethod().getType().getName() + "." + frame.getMethod().getName();
    }

    private static List<Map.Entry<String, Integer>> top(Map<String, Integer> counts, int n) {
        List<Map.Entry<String, Integer>> sorted = new ArrayList<>(counts.entrySet());
        sorted.sort(Map.Entry.<String, Integer>comparingByValue().reversed());
        return sorted.subList(0, Math.min(n, sorted.size()));
    }

    private static boolean jcmd(long pid, String... command) {
        List<String> line = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(),
                String.valueOf(pid)));
        line.addAll(List.of(command));
        try {
            Process process = new ProcessBuilder(line).redirectErrorStream(true).start();
            String output = new String(process.getInputStream().readAllBytes());
            boolean ok = process.waitFor(JCMD_TIMEOUT_S, TimeUnit.SECONDS) && process.exitValue() == 0
                    && !output.contains("Could not") && !output.contains("Exception");
            if (!ok) {
                System.err.println("ironflow bench: cannot " + command[0] + " on pid " + pid + ": " + output.strip());
            }
            return ok;
        } catch (IOException e) {
            System.err.println("ironflow bench: cannot run jcmd: " + e.getMessage());
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
