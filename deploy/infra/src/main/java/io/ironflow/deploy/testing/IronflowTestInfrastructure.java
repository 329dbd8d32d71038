package io.ironflow.deploy.testing;

import io.ironflow.deploy.infra.Infrastructure;
import io.ironflow.deploy.infra.IntentKeyring;
import io.ironflow.deploy.infra.SecretFile;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;

/**
 * Real Kafka, PostgreSQL and schema registry for a module's {@code @QuarkusTest}s, on free ports under
 * {@code target/}, deleted afterwards. Declare it once per module with {@code @QuarkusTestResource}
 * (global), so one set serves every test class of the module. One set per test JVM: a {@code @TestProfile}
 * restarts the application and its test resources, and the set outlives that restart (starting a broker, a
 * database and a registry again took about 14 s per profile); the JVM's shutdown stops it.
 */
public class IronflowTestInfrastructure implements QuarkusTestResourceLifecycleManager {

    /**
     * The system property naming the running set's configuration file. Each profile's application loads this class
     * again in a class loader of its own, so a static field would not outlive the restart; a system property does.
     */
    private static final String SHARED = "ironflow.test.infrastructure";

    @Override
    public Map<String, String> start() {
        synchronized (SHARED) { // an interned constant: one lock whichever class loader loaded this class
            try {
                String running = System.getProperty(SHARED);
                if (running != null) {
                    return read(Path.of(running));
                }
                Path dataDir = testDirectory().resolve(UUID.randomUUID().toString());
                Infrastructure infrastructure = Infrastructure.start(Infrastructure.Settings.freePorts(dataDir, registryJar()));
                Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                    infrastructure.close();
                    TestDirectories.deleteRecursively(dataDir);
                }, "ironflow-test-infrastructure-stop"));
                Properties config = new Properties();
                config.putAll(infrastructure.serviceConfig());
                config.putAll(infrastructure.serviceSecrets()); // this JVM's own configuration: no command line to leak from
                // One intent key for the module's tests: the service under test signs with it, the conductor trusts it,
                // and KafkaTestClient signs the intents a test publishes with it (SIGNING_KEY).
                Map<String, String> keys = IntentKeyring.at(dataDir.resolve("intent-keys")).testServiceConfig();
                config.putAll(keys);
                System.setProperty(KafkaTestClient.SIGNING_KEY, keys.get("ironflow.intents.signing-key"));
                Path file = dataDir.resolve("test-infrastructure.properties");
                java.io.StringWriter text = new java.io.StringWriter();
                config.store(text, "the test infrastructure of this JVM");
                SecretFile.writeOwnerOnly(file, text.toString()); // it holds the database roles' passwords
                System.setProperty(SHARED, file.toString());
                return read(file);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    private static Map<String, String> read(Path file) throws IOException {
        Properties config = new Properties();
        try (Reader in = Files.newBufferedReader(file)) {
            config.load(in);
        }
        Map<String, String> map = new HashMap<>();
        config.stringPropertyNames().forEach(key -> map.put(key, config.getProperty(key)));
        return map;
    }

    /** Nothing: the next profile's application uses the same set, and the JVM's shutdown stops it. */
    @Override
    public void stop() {
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
