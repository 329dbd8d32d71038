package io.ironflow.deploy.testing;

import io.ironflow.deploy.infra.Infrastructure;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.UUID;

/**
 * Real Kafka, PostgreSQL and schema registry for a module's {@code @QuarkusTest}s, on free ports under
 * {@code target/}, deleted afterwards. Declare it once per module with {@code @QuarkusTestResource}
 * (global), so one set serves every test class of the module.
 */
public class IronflowTestInfrastructure implements QuarkusTestResourceLifecycleManager {

    private Infrastructure infrastructure;
    private Path dataDir;

    @Override
    public Map<String, String> start() {
        try {
            dataDir = testDirectory().resolve(UUID.randomUUID().toString());
            infrastructure = Infrastructure.start(Infrastructure.Settings.freePorts(dataDir, registryJar()));
            Map<String, String> config = new java.util.HashMap<>(infrastructure.serviceConfig());
            config.putAll(infrastructure.serviceSecrets()); // this JVM's own configuration: no command line to leak from
            return config;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void stop() {
        if (infrastructure != null) {
            infrastructure.close();
        }
        TestDirectories.deleteRecursively(dataDir);
    }

    /** The running infrastructure, for tests that talk to Kafka or PostgreSQL directly. */
    public Infrastructure infrastructure() {
        return infrastructure;
    }

    static Path testDirectory() {
        return Path.of(System.getProperty("ironflow.test.dir", "target/ironflow-test")).toAbsolutePath();
    }

    static Path registryJar() {
        String jar = System.getProperty("ironflow.registry.jar");
        if (jar == null) {
            throw new IllegalStateException("system property ironflow.registry.jar is not set (the root pom sets it for surefire)");
        }
        return Path.of(jar);
    }
}
