package io.ironflow.deploy.stack;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ironflow.deploy.testing.TestDirectories;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Ctrl-C while {@code ./ironflow up} is still starting: the stack stops and leaves no process behind, including
 * the ones it was starting when the signal came (before, a schema registry or a service started after the stop had
 * closed what it knew of kept running, holding its port).
 */
class InterruptedStartTest {

    private static final Duration STOP = Duration.ofSeconds(180);

    @Test
    void ctrlCWhileStartingLeavesNoProcessBehind() throws Exception {
        Path dataDir = Path.of("target", "interrupted-start-" + UUID.randomUUID()).toAbsolutePath();
        try (RunningStack stack = RunningStack.launch(dataDir, RunningStack.freePorts(), Map.of())) {
            ProcessHandle launcher = stack.launcher.toHandle();
            Set<ProcessHandle> children = new LinkedHashSet<>();
            // The first child (PostgreSQL) is up while the registry and the services are still to come.
            while (children.isEmpty() && !stack.launcher.waitFor(20, TimeUnit.MILLISECONDS)) {
                launcher.descendants().forEach(children::add);
            }
            assertFalse(children.isEmpty(), "the launcher exited before it started a child: " + stack.output);
            RunningStack.signal("INT", launcher.pid());
            long deadline = System.nanoTime() + STOP.toNanos();
            // Every child the launcher has until it exits, the ones started after the signal too.
            while (!stack.launcher.waitFor(20, TimeUnit.MILLISECONDS)) {
                launcher.descendants().forEach(children::add);
                assertTrue(System.nanoTime() < deadline, "the launcher did not stop within " + STOP);
            }
            for (ProcessHandle child : children) {
                child.onExit().completeOnTimeout(child, 30, TimeUnit.SECONDS).get();
                assertFalse(child.isAlive(), "left behind: " + child.info());
            }
            assertTrue(String.join("\n", stack.output).contains("Ironflow stopped."), stack.output.toString());
        } finally {
            TestDirectories.deleteRecursively(dataDir);
        }
    }
}
