package io.ironflow.deploy.testing;

import io.ironflow.deploy.infra.ChildJvm;
import io.ironflow.deploy.infra.Ports;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * The OneView simulator (deploy/oneview-simulator) as its own process on a free port, for a module's
 * {@code @QuarkusTest}: tests talk to it over HTTP exactly as the allocator does. Its tasks take 100 ms a phase
 * and it has 120 generated server hardware beside the bundled inventory. Gives the service
 * {@code ironflow.oneview.url}. The jar comes from the {@code ironflow.oneview-simulator.jar} system property
 * (the root pom sets it for surefire).
 */
public class OneViewSimulatorProcess implements QuarkusTestResourceLifecycleManager {

    private ChildJvm simulator;

    @Override
    public Map<String, String> start() {
        String jar = System.getProperty("ironflow.oneview-simulator.jar");
        if (jar == null) {
            throw new IllegalStateException("system property ironflow.oneview-simulator.jar is not set (the root pom sets it)");
        }
        try {
            int port = Ports.free(1)[0];
            Path log = IronflowTestInfrastructure.testDirectory().resolve("oneview-simulator-" + port + ".log");
            simulator = ChildJvm.start("oneview-simulator", Path.of(jar), List.of("-Xmx256m"), Map.of(
                    "quarkus.http.port", String.valueOf(port),
                    "oneview.simulator.task-phase", "100ms",
                    "oneview.simulator.generated-hardware", "120"), log);
            String url = "http://127.0.0.1:" + port;
            simulator.awaitReady(URI.create(url + "/q/health/ready"), Duration.ofSeconds(60));
            return Map.of("ironflow.oneview.url", url);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void stop() {
        if (simulator != null) {
            simulator.close();
        }
    }
}
