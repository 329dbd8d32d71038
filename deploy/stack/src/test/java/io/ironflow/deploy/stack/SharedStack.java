package io.ironflow.deploy.stack;

import io.ironflow.deploy.testing.TestDirectories;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * One {@code ./ironflow up} stack (no auth) shared by the test classes that drive it only through its APIs, so
 * the module starts its seven JVMs once instead of once per class: a class gets it as the {@link RunningStack}
 * parameter of its {@code @BeforeAll} ({@code @ExtendWith(SharedStack.class)}). Each class must stay independent
 * of the others' data: its own node names, counts read relative to what is there, no global list assumed empty.
 * The stack carries what OneViewStackTest needs ({@link #ENVIRONMENT}), which changes nothing for a stack without
 * oneview nodes. It is stopped, and its data directory deleted, when the test run ends (a resource of the root
 * context); a class may {@link #takeOver() take it over} to stop it itself, and {@link #share(RunningStack) share}
 * the one it restarts in its place. If the shared stack has died, the next class gets a fresh one.
 * junit-platform.properties runs the sharing classes first, by their {@code @Order}; {@link SharedStackScope}
 * stops the stack before the first class that does not share it, so no other stack runs beside this one.
 */
final class SharedStack implements ParameterResolver {

    private static final Duration START = Duration.ofSeconds(240);
    /**
     * The allocator's periodic checks every 2 s instead of 300 s, and 100 more server hardware in the OneView
     * simulator ("Generated, bay N") for the scale scenario. The simulator reads its setting from the environment
     * every service inherits, not from a JVM flag: IRONFLOW_SERVICE_JAVA_OPTS would key every service's AppCDS
     * archive apart from those of the stacks started without it, which would then start without one.
     */
    static final Map<String, String> ENVIRONMENT = Map.of("IRONFLOW_ONEVIEW_PERIODIC_CHECK_INTERVAL", "2s",
            "ONEVIEW_SIMULATOR_GENERATED_HARDWARE", "100");

    /** The shared stack, or null; guarded by the class. */
    private static RunningStack current;

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == RunningStack.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        context.getRoot().getStore(ExtensionContext.Namespace.create(SharedStack.class))
                .computeIfAbsent("stop at the end of the run", key -> (AutoCloseable) SharedStack::stop);
        synchronized (SharedStack.class) {
            if (current != null && !current.launcher.isAlive()) {
                stop();
            }
            if (current == null) {
                Path dataDir = Path.of("target", "shared-stack-" + UUID.randomUUID()).toAbsolutePath();
                try {
                    current = launch(dataDir, RunningStack.freePorts());
                    current.awaitUp(START);
                } catch (IOException e) {
                    stopKeepingLogs();
                    throw new UncheckedIOException("the shared stack did not start; its logs stay in " + dataDir, e);
                } catch (Exception e) {
                    stopKeepingLogs();
                    throw new IllegalStateException("the shared stack did not come up; its logs stay in " + dataDir, e);
                }
            }
            return current;
        }
    }

    /** Launches (without waiting for it) a stack with the shared stack's options. */
    static RunningStack launch(Path dataDir, Map<String, Integer> ports) throws IOException {
        return RunningStack.launch(dataDir, ports, ENVIRONMENT);
    }

    /**
     * Hands the shared stack to the caller, which owns it from now on: it may stop it, and must close it and delete
     * its data directory unless it {@link #share shares} it again.
     */
    static synchronized RunningStack takeOver() {
        if (current == null) {
            throw new IllegalStateException("no shared stack to take over");
        }
        RunningStack stack = current;
        current = null;
        return stack;
    }

    /** Makes {@code stack}, up and started by {@link #launch}, the shared stack: the caller no longer owns it. */
    static synchronized void share(RunningStack stack) {
        if (current != null) {
            throw new IllegalStateException("a shared stack is already running");
        }
        current = stack;
    }

    /** Stops a shared stack that failed to come up, keeping its data directory (under target/) for its logs. */
    private static void stopKeepingLogs() {
        if (current != null) {
            current.close();
            current = null;
        }
    }

    /** Stops the shared stack, if one runs, and deletes its data directory. */
    static synchronized void stop() {
        if (current != null) {
            current.close();
            TestDirectories.deleteRecursively(current.dataDir);
            current = null;
        }
    }
}
