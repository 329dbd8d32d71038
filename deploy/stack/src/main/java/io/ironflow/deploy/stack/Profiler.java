package io.ironflow.deploy.stack;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * {@code ./ironflow bench --profile DIR}: records a round of its own, after the measured one, with async-profiler
 * (its agent comes in the Maven Central jar {@code tools.profiler:async-profiler}, linux-x64, and is loaded into the
 * running JVMs with {@code jcmd JVMTI.agent_load}, so the stack needs no flag) and sums up where each JVM's CPU went.
 * Unlike Java Flight Recorder's samples, which see Java frames only, these include the kernel (system calls: the
 * sockets of every statement and record), the garbage collector and the JIT compilers, so the layers add up to all
 * of a JVM's CPU. A sample counts for the kernel if its innermost frame is the kernel's, for "gc" or "jit" if it
 * runs in the collector or a compiler, else for the layer of its innermost frame that belongs to a known library
 * (e.g. Hibernate, the PostgreSQL client, Kafka, Avro, logging); the hottest methods are the innermost Java frames,
 * so a system call counts for the method that made it. The stacks stay in DIR, one collapsed file per JVM (for
 * flame graph tools). A JVM that cannot be profiled is named and skipped.
 */
final class Profiler {

    /** The agent inside the async-profiler jar on the launcher's class path. */
    private static final String AGENT = "linux-x64/libasyncProfiler.so";
    /**
     * Its sampling engines, best first: {@code cpu} (perf_events, the only one with the kernel's frames), else
     * {@code ctimer} (a CPU-time timer per thread, without them) where perf_events are closed to this user
     * ({@code kernel.perf_event_paranoid}, a container's seccomp profile).
     */
    private static final List<String> ENGINES = List.of("cpu", "ctimer");
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
            Map.entry("io.ironflow", "ironflow"));

    private final Map<String, Long> pids;
    private final Path dir;
    private final Path agent;
    /**
     * Stops the sampling if the benchmark is ended (Ctrl-C, SIGTERM) before {@link #stopAndSummarise}: every JVM at
     * once, so the exit waits one jcmd deadline at most, not one per JVM.
     */
    private final Thread stopAtExit;

    private Profiler(Map<String, Long> pids, Path dir, Path agent) {
        this.pids = pids;
        this.dir = dir;
        this.agent = agent;
        this.stopAtExit = new Thread(this::stopEverywhere, "profiler-stop");
        Runtime.getRuntime().addShutdownHook(stopAtExit);
    }

    /** Sends "stop" to every profiled JVM, each from a thread of its own, and waits for all of them. */
    private void stopEverywhere() {
        List<Thread> stops = new ArrayList<>();
        for (long pid : pids.values()) {
            Thread stop = new Thread(() -> load(pid, agent, "stop", false), "profiler-stop-" + pid);
            stop.start();
            stops.add(stop);
        }
        for (Thread stop : stops) {
            try {
                stop.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /** Starts profiling every JVM of {@code stack} (by its report name); the stacks go into {@code dir}. */
    static Profiler start(List<ProcessHandle> stack, Path dir) throws IOException {
        Files.createDirectories(dir);
        Path agent = agent(dir);
        Map<String, Long> pids = new LinkedHashMap<>();
        for (ProcessHandle process : stack) {
            String command = process.info().commandLine().orElse("");
            String name = ProcessCpu.nameOf(command, false);
            if (agent != null && name != null && command.contains("java") && !pids.containsKey(name)
                    && sample(process.pid(), agent)) {
                pids.put(name, process.pid());
            }
        }
        return new Profiler(pids, dir, agent);
    }

    /** Stops profiling and returns the summary as text. */
    String stopAndSummarise() throws IOException {
        try {
            Runtime.getRuntime().removeShutdownHook(stopAtExit);
        } catch (IllegalStateException exiting) {
            return ""; // the hook stops the sampling
        }
        StringBuilder out = new StringBuilder(String.format("%nProfile (async-profiler, %s)%n", dir));
        for (var entry : pids.entrySet()) {
            Path file = dir.resolve(entry.getKey().replaceAll("\\W+", "-") + ".collapsed").toAbsolutePath();
            if (load(entry.getValue(), agent, "stop,collapsed,file=" + file, true) && Files.exists(file)) {
                out.append(summarise(entry.getKey(), file));
            }
        }
        return out.toString();
    }

    /** CPU samples by layer and the ten hottest methods (self time) of one JVM's collapsed stacks. */
    static String summarise(String name, Path collapsed) throws IOException {
        Map<String, Long> layers = new HashMap<>();
        Map<String, Long> methods = new HashMap<>();
        long samples = 0;
        try (Stream<String> lines = Files.lines(collapsed)) {
            for (String line : (Iterable<String>) lines::iterator) {
                int space = line.lastIndexOf(' ');
                long count = space < 0 ? -1 : count(line.substring(space + 1));
                if (count < 0) {
                    continue; // not a stack and its count (a line cut short when a JVM stopped mid-write)
                }
                List<String> frames = List.of(line.substring(0, space).split(";")); // outermost first
                samples += count;
                layers.merge(layer(frames), count, Long::sum);
                methods.merge(hottest(frames), count, Long::sum);
            }
        }
        StringBuilder out = new StringBuilder(String.format("  %s: %d CPU samples%n    by layer:", name, samples));
        long total = Math.max(1, samples);
        top(layers, 14).forEach(e -> out.append(String.format(" %s %.0f%%,", e.getKey(), 100.0 * e.getValue() / total)));
        out.setLength(out.length() - 1);
        out.append(String.format("%n    hottest methods (self, with the system calls they make):%n"));
        top(methods, 10).forEach(e -> out.append(String.format("      %5.1f%%  %s%n", 100.0 * e.getValue() / total, e.getKey())));
        return out.toString();
    }

    private static long count(String text) {
        try {
            return Long.parseLong(text.strip());
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /**
     * The layer of one sample, its frames outermost first. The collector's work runs in its own threads (the VM
     * thread's operations, the GC workers); an allocation's slow path in a Java thread counts for its caller.
     */
    static String layer(List<String> frames) {
        if (frames.get(frames.size() - 1).endsWith("_[k]")) {
            return "kernel";
        }
        for (String frame : frames) {
            if (frame.startsWith("VM_Operation::evaluate") || frame.startsWith("GCTaskThread")
                    || frame.startsWith("ConcurrentGCThread::") || frame.startsWith("WorkerThread::")) {
                return "gc";
            }
            if (frame.startsWith("CompileBroker::")) {
                return "jit";
            }
        }
        for (int i = frames.size() - 1; i >= 0; i--) { // innermost first
            String type = frames.get(i).replace('/', '.');
            for (Map.Entry<String, String> layer : LAYERS) {
                if (type.startsWith(layer.getKey())) {
                    return layer.getValue();
                }
            }
        }
        return frames.stream().anyMatch(Profiler::isJava) ? "jdk" : "jvm";
    }

    /** The innermost Java frame, as {@code package.Class.method}; the innermost frame if there is none. */
    static String hottest(List<String> frames) {
        for (int i = frames.size() - 1; i >= 0; i--) {
            if (isJava(frames.get(i))) {
                return frames.get(i).replace('/', '.');
            }
        }
        return frames.get(frames.size() - 1);
    }

    private static boolean isJava(String frame) {
        return frame.indexOf('/') > 0 && !frame.endsWith("_[k]") && !frame.contains("::");
    }

    private static <K> List<Map.Entry<K, Long>> top(Map<K, Long> counts, int n) {
        List<Map.Entry<K, Long>> sorted = new ArrayList<>(counts.entrySet());
        sorted.sort(Map.Entry.<K, Long>comparingByValue().reversed());
        return sorted.subList(0, Math.min(n, sorted.size()));
    }

    /** The agent, copied out of the jar into {@code dir}; null (and said why) if this platform has none. */
    static Path agent(Path dir) throws IOException {
        try (InputStream in = Profiler.class.getClassLoader().getResourceAsStream(AGENT)) {
            if (in == null || !"Linux".equals(System.getProperty("os.name")) || !"amd64".equals(System.getProperty("os.arch"))) {
                System.err.println("ironflow bench: --profile needs Linux on x86-64 (async-profiler's " + AGENT + ")");
                return null;
            }
            Path agent = dir.resolve("libasyncProfiler.so").toAbsolutePath();
            Files.copy(in, agent, StandardCopyOption.REPLACE_EXISTING);
            return agent;
        }
    }

    /** Starts sampling JVM {@code pid} every millisecond of CPU, with the best engine it allows. */
    static boolean sample(long pid, Path agent) {
        for (int i = 0; i < ENGINES.size(); i++) {
            if (load(pid, agent, "start,event=" + ENGINES.get(i) + ",interval=1ms", i == ENGINES.size() - 1)) {
                return true;
            }
        }
        return false;
    }

    /**
     * {@code jcmd PID JVMTI.agent_load AGENT OPTIONS}: loads the agent (once; later calls reach the loaded one) and
     * hands it a command; a failure is reported if {@code report}. Both arguments are quoted for jcmd, whose parser
     * would take {@code key=value} as its own.
     */
    static boolean load(long pid, Path agent, String options, boolean report) {
        List<String> line = List.of(Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(),
                String.valueOf(pid), "JVMTI.agent_load", '"' + agent.toString() + '"', '"' + options + '"');
        Path log = null;
        try {
            log = Files.createTempFile("ironflow-jcmd", ".log"); // read after the exit: a pipe could block past the deadline
            Process process = new ProcessBuilder(line).redirectErrorStream(true).redirectOutput(log.toFile()).start();
            boolean exited = process.waitFor(JCMD_TIMEOUT_S, TimeUnit.SECONDS);
            if (!exited) {
                process.destroyForcibly();
            }
            String output = exited ? Files.readString(log) : "jcmd did not answer within " + JCMD_TIMEOUT_S + " s";
            boolean ok = exited && process.exitValue() == 0
                    && !output.contains("[ERROR]") && !output.contains("Could not") && !output.contains("Exception");
            if (!ok && report) {
                System.err.println("ironflow bench: cannot profile pid " + pid + " (" + options + "): " + output.strip());
            }
            return ok;
        } catch (IOException e) {
            System.err.println("ironflow bench: cannot run jcmd: " + e.getMessage());
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } finally {
            if (log != null) {
                try {
                    Files.deleteIfExists(log);
                } catch (IOException ignored) {
                    // a temporary file left behind
                }
            }
        }
    }
}
