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
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** A Java program run as a child process with its output in a log file, ready once an HTTP URL answers 200. */
public final class ChildJvm implements AutoCloseable {

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    /** How long a stopping JVM may take before it is killed: Quarkus' shutdown, with its Kafka clients' close. */
    private static final Duration STOP_GRACE = Duration.ofSeconds(20);
    /**
     * The same for a JVM that writes a class-data archive when it exits: on JDK 25 it dumps its training data
     * and then runs a second JVM to assemble the AOT cache, which takes a 2-core machine half a minute and more.
     * Killed in the middle, it leaves no archive, and every later start goes without one.
     */
    private static final Duration ARCHIVING_STOP_GRACE = Duration.ofSeconds(150);

    private final String name;
    private final Process process;
    private final Path log;
    private final Duration stopGrace;

    private ChildJvm(String name, Process process, Path log, Duration stopGrace) {
        this.name = name;
        this.process = process;
        this.log = log;
        this.stopGrace = stopGrace;
    }

    /** Whether {@code jvmOption} makes a JVM write a class-data archive or an AOT cache when it exits. */
    public static boolean writesArchiveAtExit(String jvmOption) {
        return jvmOption.startsWith("-XX:AOTCacheOutput=") || jvmOption.startsWith("-XX:ArchiveClassesAtExit=");
    }

    /** Starts {@code java [jvmOptions] -Dk=v... -jar jar}; stdout and stderr go to {@code log}. */
    public static ChildJvm start(String name, Path jar, List<String> jvmOptions, Map<String, String> systemProperties,
            Path log) throws IOException {
        return start(name, jar, jvmOptions, systemProperties, Map.of(), log);
    }

    /**
     * The same, with {@code environment} added to the child's environment: where secrets go, since a command line
     * is readable by every user of the machine and an environment only by the process's owner.
     */
    public static ChildJvm start(String name, Path jar, List<String> jvmOptions, Map<String, String> systemProperties,
            Map<String, String> environment, Path log) throws IOException {
        if (!Files.isRegularFile(jar)) {
            throw new IOException(name + ": " + jar + " does not exist; build it first (./mvnw -DskipTests install)");
        }
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(jvmOptions);
        systemProperties.forEach((k, v) -> command.add("-D" + k + "=" + v));
        command.add("-jar");
        command.add(jar.toAbsolutePath().toString());
        Files.createDirectories(log.getParent());
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().putAll(environment);
        Process process = builder
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                .start();
        boolean archiving = jvmOptions.stream().anyMatch(ChildJvm::writesArchiveAtExit);
        return new ChildJvm(name, process, log, archiving ? ARCHIVING_STOP_GRACE : STOP_GRACE);
    }

    /** Polls {@code url} until it answers 200; fails early if the process dies. */
    public ChildJvm awaitReady(URI url, Duration timeout) throws IOException {
        Instant deadline = Instant.now().plus(timeout);
        HttpRequest request = HttpRequest.newBuilder(url).timeout(Duration.ofSeconds(2)).GET().build();
        while (true) {
            if (!process.isAlive()) {
                throw new IOException(name + " exited with code " + process.exitValue() + " before it was ready; see " + log);
            }
            try {
                if (HTTP.send(request, HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
                    return this;
                }
            } catch (IOException notYet) {
                // not listening yet
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException(e);
            }
            if (Instant.now().isAfter(deadline)) {
                throw new IOException(name + " was not ready at " + url + " within " + timeout.toSeconds() + " s; see " + log);
            }
            sleep(250);
        }
    }

    public String name() {
        return name;
    }

    public Process process() {
        return process;
    }

    public Path log() {
        return log;
    }

    /**
     * Asks the process to stop (SIGTERM, which Quarkus handles gracefully) and kills it if it lingers past its
     * grace: longer for a JVM that writes its archive at exit.
     */
    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(stopGrace.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
