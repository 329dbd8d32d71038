package io.ironflow.deploy.infra;

import io.ironflow.schemas.Topic;
import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Kafka, PostgreSQL and the schema registry, started together under one data directory.
 * The local stack and every module's tests use this one class, so they run on the same infrastructure.
 * Started with {@link KafkaSecurity.Options}, Kafka takes SASL/SCRAM with ACLs and the registry basic auth
 * ({@link KafkaSecurity}); each service then gets its own principal's settings from {@link #serviceConfig(String)}.
 */
public final class Infrastructure implements AutoCloseable {

    /**
     * Where and on which ports to run; {@code registryJar} is the registry module's runnable jar; {@code durable}:
     * PostgreSQL flushes every commit ({@link EmbeddedPostgresServer}).
     */
    public record Settings(Path dataDir, int kafkaPort, int kafkaControllerPort, int postgresPort, int registryPort,
            Path registryJar, boolean durable) {

        /** The local stack's ports from DESIGN.md, durable. */
        public static Settings defaults(Path dataDir, Path registryJar) {
            return new Settings(dataDir, 9092, 9093, 15432, 18081, registryJar, true);
        }

        /**
         * Free ports, for tests that must not collide with a running stack or with each other; not durable (a test's
         * throwaway database): see {@link #durably}.
         */
        public static Settings freePorts(Path dataDir, Path registryJar) throws IOException {
            int[] ports = Ports.free(4);
            return new Settings(dataDir, ports[0], ports[1], ports[2], ports[3], registryJar, false);
        }

        /** The same settings with every commit flushed, for tests of what survives a crash. */
        public Settings durably() {
            return new Settings(dataDir, kafkaPort, kafkaControllerPort, postgresPort, registryPort, registryJar, true);
        }
    }

    private final KafkaBroker kafka;
    private final EmbeddedPostgresServer postgres;
    private final SchemaRegistry registry;

    private Infrastructure(KafkaBroker kafka, EmbeddedPostgresServer postgres, SchemaRegistry registry) {
        this.kafka = kafka;
        this.postgres = postgres;
        this.registry = registry;
    }

    public static Infrastructure start(Settings settings) throws IOException {
        return start(settings, null);
    }

    /** Starts everything; with {@code secure} (null for none), Kafka and the registry authenticate and authorize. */
    public static Infrastructure start(Settings settings, KafkaSecurity.Options secure) throws IOException {
        KafkaSecurity security = secure == null ? null : KafkaSecurity.prepare(settings.dataDir(), secure);
        // The registry is a separate JVM: let it boot while Kafka and PostgreSQL start in this one.
        SchemaRegistry registry = security == null
                ? SchemaRegistry.launch(settings.registryJar(), settings.dataDir(), settings.registryPort())
                : SchemaRegistry.launch(settings.registryJar(), settings.dataDir(), settings.registryPort(),
                        security.users(), security.registryRoles(), KafkaSecurity.ADMIN);
        KafkaBroker kafka = null;
        EmbeddedPostgresServer postgres = null;
        try {
            postgres = EmbeddedPostgresServer.start(settings.dataDir(), settings.postgresPort(), settings.durable());
            kafka = KafkaBroker.start(settings.dataDir(), settings.kafkaPort(), settings.kafkaControllerPort(), security);
            kafka.createTopics(Topic.all());
            registry.awaitReady();
            registry.registerValueSchemas(Topic.all());
            return new Infrastructure(kafka, postgres, registry);
        } catch (IOException | RuntimeException e) {
            closeQuietly(registry);
            closeQuietly(kafka);
            closeQuietly(postgres);
            throw e;
        }
    }

    /**
     * The secrets Ironflow's services need, by configuration key: the database roles' passwords, one role per
     * service. The services' properties name theirs ({@code quarkus.datasource.password=${ironflow.db.owner-password}});
     * the launcher hands a process only its own, through its environment ({@link #environmentVariable}), never on its
     * command line. A module's tests get them all: they arrange their fixtures as the roles that own the tables.
     */
    public Map<String, String> serviceSecrets() {
        return Map.of(EmbeddedPostgresServer.OWNER_PASSWORD, postgres.ownerPassword(),
                EmbeddedPostgresServer.READER_PASSWORD, postgres.readerPassword(),
                EmbeddedPostgresServer.TEARDOWN_PASSWORD, postgres.teardownPassword());
    }

    /** {@link #serviceSecrets} as a child process's environment variables. */
    public Map<String, String> serviceEnvironment() {
        Map<String, String> environment = new LinkedHashMap<>();
        serviceSecrets().forEach((key, value) -> environment.put(environmentVariable(key), value));
        return environment;
    }

    /** MicroProfile Config's environment variable for a configuration key: {@code a.b-c} is {@code A_B_C}. */
    public static String environmentVariable(String key) {
        return key.replaceAll("[^A-Za-z0-9]", "_").toUpperCase(java.util.Locale.ROOT);
    }

    /** The runtime configuration every Ironflow service needs to reach this infrastructure (no secrets: see {@link #serviceSecrets}). */
    public Map<String, String> serviceConfig() {
        Map<String, String> config = new LinkedHashMap<>();
        config.put("kafka.bootstrap.servers", kafka.bootstrapServers());
        config.put("mp.messaging.connector.smallrye-kafka.apicurio.registry.url", registry.apiUrl());
        config.put("quarkus.datasource.reactive.url", postgres.reactiveUrl());
        config.put("quarkus.datasource.jdbc.url", postgres.jdbcUrl());
        return config;
    }

    /** The same for a service acting as Kafka principal {@code user}: on a secure stack, with its credentials. */
    public Map<String, String> serviceConfig(String user) {
        Map<String, String> config = serviceConfig();
        if (kafka.security() != null) {
            config.putAll(kafka.security().serviceConfig(user));
        }
        return config;
    }

    public KafkaBroker kafka() {
        return kafka;
    }

    public EmbeddedPostgresServer postgres() {
        return postgres;
    }

    public SchemaRegistry registry() {
        return registry;
    }

    @Override
    public void close() {
        closeQuietly(registry);
        closeQuietly(kafka);
        closeQuietly(postgres);
    }

    private static void closeQuietly(AutoCloseable closeable) {
        if (closeable == null) {
            return;
        }
        try {
            closeable.close();
        } catch (Exception e) {
            System.err.println("while stopping " + closeable.getClass().getSimpleName() + ": " + e);
        }
    }
}
