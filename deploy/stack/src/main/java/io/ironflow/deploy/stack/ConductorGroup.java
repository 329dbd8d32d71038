package io.ironflow.deploy.stack;

import io.ironflow.deploy.infra.ChildJvm;
import io.ironflow.deploy.infra.Ports;
import io.ironflow.schemas.Topic;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.MemberDescription;

/**
 * The conductors of a running stack as one Kafka consumer group, for {@code ./ironflow bench --scale}: more
 * conductor processes started exactly as the launcher started its own (the same JVM flags and configuration,
 * another HTTP port and conductor name), killed with SIGKILL as a crash would, and the group's assignment of
 * {@code ironflow.node-intents}'s partitions read from Kafka's admin API. Only the conductors this class started
 * are ever stopped or killed. Every wait has a deadline.
 */
final class ConductorGroup implements AutoCloseable {

    static final String GROUP = "ironflow-conductor";
    private static final Duration READY = Duration.ofMinutes(4);

    private final List<String> command;
    private final Path logs;
    private final Admin admin;
    private final List<Process> started = new ArrayList<>();
    private final HttpClient http = HttpClient.newHttpClient();

    private final Map<String, String> environment;

    private ConductorGroup(List<String> command, Map<String, String> environment, Path logs, Admin admin) {
        this.command = command;
        this.environment = environment;
        this.logs = logs;
        this.admin = admin;
    }

    /**
     * The group of the stack whose conductor is among {@code stack}, its Kafka at {@code bootstrap}; the conductors
     * it adds get {@code environment} (the secrets the launcher gave its own through the environment) and, with its
     * command line, the file of its Kafka and registry credentials on a {@code --secure} stack
     * ({@code -Dquarkus.config.locations}); the group is read with {@code kafkaSecurity}, the conductor's own client
     * settings (empty on an open stack).
     */
    static ConductorGroup of(List<ProcessHandle> stack, String bootstrap, Path logs, Map<String, String> environment,
            Map<String, Object> kafkaSecurity) {
        ProcessHandle conductor = stack.stream().flatMap(p -> Stream.concat(Stream.of(p), p.descendants())) // as it runs now
                .filter(ProcessHandle::isAlive)
                .filter(p -> "conductor-service".equals(ProcessCpu.nameOf(p.info().commandLine().orElse(""), false)))
                .findFirst().orElseThrow(() -> new IllegalStateException("no conductor-service process of this stack is found"));
        List<String> command = new ArrayList<>();
        command.add(conductor.info().command().orElseThrow());
        for (String argument : conductor.info().arguments().orElseThrow()) {
            // its own port and name are replaced; an archive is written by the launcher's conductor only
            if (!argument.startsWith("-Dquarkus.http.port=") && !argument.startsWith("-Dironflow.conductor.name=")
                    && !ChildJvm.writesArchiveAtExit(argument)) {
                command.add(argument);
            }
        }
        return new ConductorGroup(command, Map.copyOf(environment), logs, groupAdmin(bootstrap, kafkaSecurity));
    }

    /** An admin client that reads the group, logged in with {@code kafkaSecurity} (the registry's settings left out). */
    static Admin groupAdmin(String bootstrap, Map<String, Object> kafkaSecurity) {
        Properties config = new Properties();
        kafkaSecurity.forEach((key, value) -> {
            if (!key.startsWith("apicurio.")) {
                config.put(key, value);
            }
        });
        config.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        config.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 5_000);
        config.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 10_000);
        return Admin.create(config);
    }

    /** Starts one more conductor named {@code name} and returns once it is ready. */
    ProcessHandle add(String name) throws IOException, InterruptedException {
        int port = Ports.free(1)[0];
        List<String> line = new ArrayList<>(command.subList(0, 1));
        line.add("-Dquarkus.http.port=" + port);
        line.add("-Dironflow.conductor.name=" + name);
        line.addAll(command.subList(1, command.size()));
        ProcessBuilder builder = new ProcessBuilder(line);
        builder.environment().putAll(environment);
        Process process = builder.redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(logs.resolve(name + ".log").toFile())).start();
        started.add(process);
        URI ready = URI.create("http://127.0.0.1:" + port + "/q/health/ready");
        long deadline = System.nanoTime() + READY.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException(name + " exited before it was ready; see " + logs.resolve(name + ".log"));
            }
            try {
                if (http.send(HttpRequest.newBuilder(ready).timeout(Duration.ofSeconds(2)).build(),
                        HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
                    return process.toHandle();
                }
            } catch (IOException e) {
                // not listening yet
            }
            Thread.sleep(500);
        }
        throw new IllegalStateException(name + " was not ready within " + READY.toMinutes() + " min");
    }

    /** Kills {@code conductor} (one this class started) with SIGKILL, as a crash would. */
    void kill(ProcessHandle conductor) throws InterruptedException {
        if (started.stream().noneMatch(p -> p.pid() == conductor.pid())) {
            throw new IllegalArgumentException("pid " + conductor.pid() + " was not started by the benchmark");
        }
        conductor.destroyForcibly();
        conductor.onExit().thenRun(() -> { }).join();
    }

    /** How many partitions of the intents topic each member holds (sorted, largest first); empty if none. */
    List<Integer> assignment() throws Exception {
        ConsumerGroupDescription group = admin.describeConsumerGroups(List.of(GROUP)).all().get(10, TimeUnit.SECONDS).get(GROUP);
        List<Integer> counts = new ArrayList<>();
        for (MemberDescription member : group.members()) {
            counts.add((int) member.assignment().topicPartitions().stream()
                    .filter(p -> p.topic().equals(Topic.NODE_INTENTS.topicName())).count());
        }
        counts.sort((a, b) -> b - a);
        return counts;
    }

    /**
     * Waits until {@code members} conductors hold every partition of the intents topic between them; returns how
     * long that took, or fails after {@code deadline}.
     */
    Duration awaitAssigned(int members, Duration deadline) throws Exception {
        long start = System.nanoTime();
        while (true) {
            List<Integer> counts = assignment();
            if (counts.size() == members && counts.stream().mapToInt(Integer::intValue).sum() == Topic.NODE_PARTITIONS) {
                return Duration.ofNanos(System.nanoTime() - start);
            }
            if (System.nanoTime() - start > deadline.toNanos()) {
                throw new IllegalStateException("the group did not settle on " + members + " conductors holding all "
                        + Topic.NODE_PARTITIONS + " partitions within " + deadline.toSeconds() + " s: " + counts);
            }
            Thread.sleep(200);
        }
    }

    /** Stops the conductors this class started (SIGTERM, then SIGKILL after 20 s) and the admin client. */
    @Override
    public void close() throws InterruptedException {
        for (Process process : started) {
            process.destroy();
        }
        for (Process process : started) {
            if (!process.waitFor(20, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        }
        admin.close(Duration.ofSeconds(5));
    }
}
