package io.ironflow.deploy.infra;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A server started while its JVM shuts down (Ctrl-C during {@code ./ironflow up}) is stopped, not left running:
 * zonky launches it with {@code pg_ctl start} and only then registers the hook that would stop it, which a
 * shutting-down JVM refuses. Before, the daemonized postgres outlived the stack, holding its port.
 */
class EmbeddedPostgresShutdownTest {

    @Test
    void aServerWhoseStartFailsDuringShutdownIsStopped(@TempDir Path dataDir) throws Exception {
        Process jvm = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), StartDuringShutdown.class.getName(),
                dataDir.toString(), String.valueOf(Ports.free(1)[0]))
                .redirectErrorStream(true)
                .start();
        try {
            String output = new String(jvm.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(jvm.waitFor(120, TimeUnit.SECONDS), output);
            // the failure this is about happened: pg_ctl ran, and zonky's hook was refused
            assertTrue(output.contains("start failed: java.lang.IllegalStateException"), output);
            assertTrue(Files.exists(dataDir.resolve("postgres").resolve("PG_VERSION")), output);
            Path pidFile = dataDir.resolve("postgres").resolve("postmaster.pid");
            if (Files.exists(pidFile)) {
                long pid = Long.parseLong(Files.readAllLines(pidFile).get(0).trim());
                assertFalse(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false),
                        "postgres " + pid + " left running:\n" + output);
            }
            assertEquals(0, jvm.exitValue(), output);
        } finally {
            jvm.destroyForcibly();
            EmbeddedPostgresServer.stopLeftOver(dataDir.resolve("postgres"), Duration.ZERO);
        }
    }

    /**
     * zonky's shutdown hook can close its server while it still starts: pg_ctl stop finds no postmaster.pid, fails
     * (zonky logs it) and marks the instance closed, so a later close does nothing. Emulated by marking it closed:
     * the server's close stops the postgres still running.
     */
    @Test
    void aServerZonkyAlreadyMarkedClosedIsStoppedByClose(@TempDir Path dataDir) throws Exception {
        EmbeddedPostgresServer server = EmbeddedPostgresServer.start(dataDir, Ports.free(1)[0], false);
        Path pidFile = dataDir.resolve("postgres").resolve("postmaster.pid");
        ProcessHandle postgres = ProcessHandle.of(Long.parseLong(Files.readAllLines(pidFile).get(0).trim())).orElseThrow();
        try {
            var zonky = EmbeddedPostgresServer.class.getDeclaredField("postgres");
            zonky.setAccessible(true);
            var closed = zonky.get(server).getClass().getDeclaredField("closed");
            closed.setAccessible(true);
            ((java.util.concurrent.atomic.AtomicBoolean) closed.get(zonky.get(server))).set(true);
            server.close();
            postgres.onExit().completeOnTimeout(postgres, 15, TimeUnit.SECONDS).join();
            assertFalse(postgres.isAlive(), "postgres " + postgres.pid() + " still runs");
        } finally {
            postgres.destroyForcibly();
        }
    }

    /** A server still starting has written no postmaster.pid yet: a stop finds it by its data directory all the same. */
    @Test
    void aServerWithoutItsPidFileIsFoundByItsDataDirectory(@TempDir Path dataDir) throws Exception {
        EmbeddedPostgresServer.start(dataDir, Ports.free(1)[0], false); // closed by the stop below
        Path pidFile = dataDir.resolve("postgres").resolve("postmaster.pid");
        ProcessHandle postgres = ProcessHandle.of(Long.parseLong(Files.readAllLines(pidFile).get(0).trim())).orElseThrow();
        try {
            Files.move(pidFile, dataDir.resolve("postmaster.pid.aside"));
            EmbeddedPostgresServer.stopLeftOver(dataDir.resolve("postgres"), Duration.ofSeconds(10));
            postgres.onExit().completeOnTimeout(postgres, 15, TimeUnit.SECONDS).join();
            assertFalse(postgres.isAlive(), "postgres " + postgres.pid() + " still runs");
        } finally {
            postgres.destroyForcibly();
        }
    }

    /** The child JVM: exits at once, and starts a server from a shutdown hook, where the JVM is shutting down. */
    public static final class StartDuringShutdown {

        public static void main(String[] args) {
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                try (EmbeddedPostgresServer server = EmbeddedPostgresServer.start(Path.of(args[0]),
                        Integer.parseInt(args[1]), false)) {
                    System.out.println("started on " + server.port());
                } catch (Exception e) {
                    System.out.println("start failed: " + e);
                }
            }));
        }
    }
}
