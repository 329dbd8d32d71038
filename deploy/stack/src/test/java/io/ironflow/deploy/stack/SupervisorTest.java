package io.ironflow.deploy.stack;

import static io.ironflow.deploy.stack.Matching.matching;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ironflow.deploy.infra.ChildJvm;
import io.ironflow.deploy.infra.Ports;
import io.ironflow.deploy.testing.TestDirectories;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The supervisor on a real child JVM ({@link SickService}) that is live until the test makes it turn DOWN,
 * silent or exit: each time it is killed if need be and started again, with the backoff doubling to its cap.
 */
class SupervisorTest {

    private static final Supervisor.Policy FAST = new Supervisor.Policy(Duration.ofMillis(200), Duration.ofSeconds(1),
            Duration.ofSeconds(60), Duration.ofMillis(200), Duration.ofMillis(400), Duration.ofHours(1));

    private final Path dir = Path.of("target", "supervisor-test-" + UUID.randomUUID()).toAbsolutePath();
    private final List<String> log = new CopyOnWriteArrayList<>();
    private Supervisor supervisor;

    @AfterEach
    void cleanUp() {
        if (supervisor != null) {
            supervisor.close();
        }
        TestDirectories.deleteRecursively(dir);
    }

    @ParameterizedTest
    @CsvSource({"503, liveness DOWN or unanswered for 1 s; killed", "hang, liveness DOWN or unanswered for 1 s; killed",
            "exit, exited with code 3"})
    void aServiceThatTurnsSickIsRestartedWithADoublingBackoff(String then, String reason) throws Exception {
        int port = Ports.free(1)[0];
        Path jar = sickServiceJar();
        URI live = URI.create("http://127.0.0.1:" + port + "/q/health/live");
        supervisor = new Supervisor("sick", () -> ChildJvm.start("sick", jar, List.of("-Xmx32m"),
                Map.of("sick.port", String.valueOf(port), "sick.then", then, "sick.dir", dir.toString()),
                dir.resolve("sick.log")), live, FAST, line -> {
                    System.out.println(line);
                    log.add(line);
                });
        ChildJvm first = supervisor.start().awaitReady(live, Duration.ofSeconds(60));
        supervisor.supervise();

        List<ProcessHandle> instances = new ArrayList<>(List.of(first.process().toHandle()));
        for (int restart = 1; restart <= 3; restart++) {
            ProcessHandle sick = instances.get(restart - 1);
            Files.createFile(dir.resolve("sick-" + sick.pid()));
            awaitLine("ironflow: supervisor: sick " + reason + " (pid " + sick.pid() + "); restart " + restart + " in "
                    + (restart == 1 ? "0.2" : "0.4") + " s; see " + dir.resolve("sick.log"));
            assertFalse(sick.isAlive(), "the sick instance is gone before the next starts");
            awaitLine("ironflow: supervisor: sick is live again after restart " + restart + " (pid ");
            ProcessHandle next = supervisor.current().process().toHandle();
            assertFalse(instances.contains(next));
            instances.add(next);
        }
        assertEquals(6, log.size(), "one line per event: " + log);

        supervisor.close();
        int linesAtClose = log.size();
        assertFalse(instances.get(instances.size() - 1).isAlive(), "close stops the running instance");
        Thread.sleep(1500);
        assertEquals(linesAtClose, log.size(), "nothing restarts after close: " + log);
    }

    @Test
    void theBackoffDoublesFromOneSecondToThirty() {
        Supervisor.Policy policy = Supervisor.Policy.of(Duration.ofSeconds(30));
        assertEquals(List.of(1L, 2L, 4L, 8L, 16L, 30L, 30L), List.of(1, 2, 3, 4, 5, 6, 100).stream()
                .map(attempt -> policy.backoff(attempt).toSeconds()).toList());
    }

    private void awaitLine(String prefix) {
        await("a line '" + prefix + "'").atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(50))
                .until(() -> List.copyOf(log), matching("a line '" + prefix + "'", lines -> lines.stream().anyMatch(line -> line.startsWith(prefix))));
    }

    /** A runnable jar of SickService, whose class this module's tests compiled. */
    private Path sickServiceJar() throws IOException {
        Path classes = Path.of(URI.create(SickService.class.getProtectionDomain().getCodeSource().getLocation().toString()));
        String entry = SickService.class.getName().replace('.', '/') + ".class";
        Manifest manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        manifest.getMainAttributes().put(Attributes.Name.MAIN_CLASS, SickService.class.getName());
        Path jar = Files.createDirectories(dir).resolve("sick.jar");
        try (OutputStream out = Files.newOutputStream(jar); JarOutputStream jarOut = new JarOutputStream(out, manifest)) {
            jarOut.putNextEntry(new JarEntry(entry));
            jarOut.write(Files.readAllBytes(classes.resolve(entry)));
            jarOut.closeEntry();
        }
        return jar;
    }
}
