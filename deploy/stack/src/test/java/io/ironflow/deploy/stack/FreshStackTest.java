package io.ironflow.deploy.stack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bench --fresh-stack}'s launcher line: {@code ./ironflow up} on the data directory with every port moved
 * by the offset, and the API's rate limit off for that stack (the benchmark's one address would otherwise be
 * answered 429), unless the caller's environment says otherwise.
 */
class FreshStackTest {

    @Test
    void theFreshStackIsStartedWithoutTheApisRateLimit() {
        ProcessBuilder launcher = FreshStack.launcher(Path.of("/tmp/bench-data"), 6000);
        List<String> command = launcher.command();
        assertTrue(command.get(0).endsWith("ironflow"), command.toString());
        assertEquals(List.of("up", "--data-dir", "/tmp/bench-data"), command.subList(1, 4));
        int api = command.indexOf(StackOptions.flagFor(StackOptions.API));
        assertEquals(String.valueOf(StackOptions.defaultPorts().get(StackOptions.API) + 6000), command.get(api + 1));
        assertEquals(System.getenv().getOrDefault(FreshStack.RATE_LIMIT, "false"),
                launcher.environment().get(FreshStack.RATE_LIMIT));
    }

    /** A launcher that gives up (here: a port is taken) is reported at once with its own words, not at the deadline. */
    @Test
    void aLauncherThatStopsIsReportedAtOnceWithItsReason(@TempDir Path dir) {
        ProcessBuilder launcher = new ProcessBuilder("sh", "-c",
                "echo 'ironflow: port 6385 (api-service) is already in use on 127.0.0.1'; exit 1");
        long started = System.nanoTime();
        IllegalStateException failed = assertThrows(IllegalStateException.class, () -> FreshStack.start(dir.resolve("data"), launcher));
        assertTrue(failed.getMessage().startsWith("the stack stopped before it came up (exit code 1)"), failed.getMessage());
        assertTrue(failed.getMessage().contains("port 6385 (api-service) is already in use"), failed.getMessage());
        assertTrue(Duration.ofNanos(System.nanoTime() - started).toSeconds() < 30, "not at the start deadline");
    }
}
