package io.ironflow.deploy.stack;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * {@code ./ironflow bench --fresh-stack DIR}: a whole stack started for one benchmark run, exactly as a user
 * starts it ({@code ./ironflow up --data-dir DIR}, every port moved by {@code --port-offset}), so the cold first
 * round is measured on JVMs that have done nothing yet; stopped (SIGTERM, as Ctrl-C) when the run ends. DIR
 * must be new or empty: the figures are a fresh stack's. Starting has a deadline; the launcher's output is kept
 * in DIR.log. The stack's API runs without its rate limit ({@value #RATE_LIMIT}{@code =false}, unless the
 * caller's environment sets it): the benchmark's clients, one address, send thousands of requests a second,
 * and a 429 would measure the limit, not the stack.
 */
final class FreshStack implements AutoCloseable {

    /** The API's rate limit switch, as the services read it from their environment. */
    static final String RATE_LIMIT = "IRONFLOW_API_RATE_LIMIT_ENABLED";
    private static final Duration START_DEADLINE = Duration.ofMinutes(10);
    private static final Duration STOP_DEADLINE = Duration.ofMinutes(4); // the services' AOT caches are written as they stop

    private final Process launcher;
    private final Path log;
    private final AtomicBoolean closed = new AtomicBoolean();
    private final Thread onExit;

    private FreshStack(Process launcher, Path log) {
        this.launcher = launcher;
        this.log = log;
        // Ctrl-C on the benchmark stops its stack too.
        onExit = new Thread(() -> {
            try {
                close();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        Runtime.getRuntime().addShutdownHook(onExit);
    }

    /** The API's URL of a stack whose ports are the defaults plus {@code offset}. */
    static String api(int offset) {
        return "http://127.0.0.1:" + (StackOptions.defaultPorts().get(StackOptions.API) + offset);
    }

    /** Starts {@code ./ironflow up} on {@code dataDir} and returns once it reports that it is up. */
    static FreshStack start(Path dataDir, int offset) throws IOException, InterruptedException {
        Path data = dataDir.toAbsolutePath().normalize();
        if (Files.isDirectory(data)) {
            try (var entries = Files.list(data)) {
                if (entries.findAny().isPresent()) {
                    throw new IllegalArgumentException("--fresh-stack " + data + " is not empty: choose a new directory");
                }
            }
        }
        return start(data, launcher(data, offset));
    }

    /** Starts {@code builder} (a launcher writing into {@code data}) and returns once it reports that it is up. */
    static FreshStack start(Path data, ProcessBuilder builder) throws IOException, InterruptedException {
        Path log = data.resolveSibling(data.getFileName() + ".log");
        Process launcher = builder.redirectErrorStream(true).redirectOutput(log.toFile()).start();
        FreshStack stack = new FreshStack(launcher, log);
        System.out.println("Starting a fresh stack: " + RATE_LIMIT + "=" + builder.environment().get(RATE_LIMIT) + " "
                + String.join(" ", builder.command()) + " (output in " + log + ")");
        long deadline = System.nanoTime() + START_DEADLINE.toNanos();
        while (true) {
            boolean alive = launcher.isAlive(); // before reading: a launcher that stopped has written all it says
            String output = Files.exists(log) ? Files.readString(log) : "";
            if (output.contains("Ironflow is up")) {
                System.out.println(output.lines().filter(l -> l.contains("Ironflow is up")).findFirst().orElse("").strip());
                return stack;
            }
            if (!alive || System.nanoTime() > deadline) {
                String why = alive ? "did not come up within " + START_DEADLINE.toMinutes() + " min"
                        : "stopped before it came up (exit code " + launcher.exitValue() + ")";
                stack.close();
                throw new IllegalStateException("the stack " + why + "; see " + log + ":\n" + tail(output));
            }
            Thread.sleep(500);
        }
    }

    /** {@code ./ironflow up} on {@code data}, every port moved by {@code offset}, the API's rate limit off. */
    static ProcessBuilder launcher(Path data, int offset) {
        List<String> command = new ArrayList<>(List.of(StackOptions.defaultHome().resolve("ironflow").toString(), "up",
                "--data-dir", data.toString()));
        StackOptions.defaultPorts().forEach((name, port) -> command.addAll(List.of(StackOptions.flagFor(name),
                String.valueOf(port + offset))));
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().putIfAbsent(RATE_LIMIT, "false");
        return builder;
    }

    /** Stops the stack as Ctrl-C does, and kills what is left after the deadline. */
    @Override
    public void close() throws InterruptedException {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        if (Thread.currentThread() != onExit) {
            Runtime.getRuntime().removeShutdownHook(onExit);
        }
        List<ProcessHandle> children = launcher.descendants().toList();
        launcher.destroy();
        if (!launcher.waitFor(STOP_DEADLINE.toSeconds(), TimeUnit.SECONDS)) {
            System.err.println("ironflow bench: the stack did not stop within " + STOP_DEADLINE.toSeconds() + " s; killing it");
            launcher.destroyForcibly();
        }
        children.stream().filter(ProcessHandle::isAlive).forEach(ProcessHandle::destroyForcibly);
        System.out.println("Stopped the fresh stack (its output: " + log + ")");
    }

    private static String tail(String output) {
        List<String> lines = output.lines().toList();
        return String.join("\n", lines.subList(Math.max(0, lines.size() - 20), lines.size()));
    }
}
