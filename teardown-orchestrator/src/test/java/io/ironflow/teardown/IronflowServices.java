package io.ironflow.teardown;

import io.ironflow.deploy.infra.ChildJvm;
import io.ironflow.deploy.infra.Ports;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigProvider;

/**
 * The real conductor-service and api-service, each its own JVM from its runnable jar, on the test's Kafka,
 * registry and PostgreSQL (read from the running test's configuration), the API on the port the orchestrator
 * was told ({@link TeardownPeers#apiPort()}). Started once, for the tests that destroy nodes; stopped with the peers.
 */
final class IronflowServices {

    private static ChildJvm conductor;
    private static ChildJvm api;

    private IronflowServices() {
    }

    static synchronized void startOnce() {
        if (api != null) {
            return;
        }
        try {
            Config config = ConfigProvider.getConfig();
            Map<String, String> shared = new LinkedHashMap<>();
            for (String key : List.of("kafka.bootstrap.servers", "mp.messaging.connector.smallrye-kafka.apicurio.registry.url",
                    "quarkus.datasource.reactive.url", "quarkus.datasource.jdbc.url",
                    // the test JVM's intent key: the conductor trusts it, the API signs with it
                    "ironflow.intents.trusted-keys", "ironflow.intents.signing-key")) {
                shared.put(key, config.getValue(key, String.class));
            }
            // the database passwords go to the services' environment, never their command lines
            Map<String, String> secrets = new LinkedHashMap<>();
            for (String key : List.of("ironflow.db.owner-password", "ironflow.db.reader-password")) {
                secrets.put(io.ironflow.deploy.infra.Infrastructure.environmentVariable(key), config.getValue(key, String.class));
            }
            Path home = Path.of(System.getProperty("ironflow.home", "..")).toAbsolutePath();
            Path logs = Path.of(System.getProperty("ironflow.test.dir", "target/ironflow-test")).toAbsolutePath().resolve("services");
            int conductorPort = Ports.free(1)[0];
            conductor = start(home, "conductor-service", conductorPort, shared, secrets, logs);
            api = start(home, "api-service", TeardownPeers.apiPort(), shared, secrets, logs);
        } catch (IOException e) {
            stop();
            throw new UncheckedIOException(e);
        }
    }

    private static ChildJvm start(Path home, String service, int port, Map<String, String> shared,
            Map<String, String> secrets, Path logs) throws IOException {
        Map<String, String> properties = new LinkedHashMap<>(shared);
        properties.put("quarkus.http.port", String.valueOf(port));
        return ChildJvm.start(service, home.resolve(service).resolve("target/quarkus-app/quarkus-run.jar"),
                List.of("-Xmx384m", "-XX:TieredStopAtLevel=1"), properties, secrets, logs.resolve(service + ".log"))
                .awaitReady(URI.create("http://127.0.0.1:" + port + "/q/health/ready"), Duration.ofSeconds(120));
    }

    static synchronized void stop() {
        if (api != null) {
            api.close();
            api = null;
        }
        if (conductor != null) {
            conductor.close();
            conductor = null;
        }
    }
}
