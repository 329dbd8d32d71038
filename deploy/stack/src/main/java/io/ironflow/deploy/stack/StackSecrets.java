package io.ironflow.deploy.stack;

import io.ironflow.deploy.infra.EmbeddedPostgresServer;
import io.ironflow.deploy.infra.Infrastructure;
import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;

/**
 * The secrets a stack's data directory keeps, for the launcher's own tools (bench, bench-list) that reach its
 * database or start more of its services: read from {@code secrets/database.properties} (0600), or from the
 * environment variable of the same key when that is set, as MicroProfile Config would.
 */
final class StackSecrets {

    private StackSecrets() {
    }

    /** The database owner role's password of the stack kept in {@code dataDir}. */
    static String databaseOwnerPassword(Path dataDir) {
        return database(dataDir).get(EmbeddedPostgresServer.OWNER_PASSWORD);
    }

    /** What the launcher gives a conductor through its environment: the owner role's password. */
    static Map<String, String> conductorEnvironment(Path dataDir) {
        return Map.of(Infrastructure.environmentVariable(EmbeddedPostgresServer.OWNER_PASSWORD), databaseOwnerPassword(dataDir));
    }

    /**
     * The Authorization header of the admin {@code ./ironflow up --auth} generated for {@code dataDir} (Basic for
     * http_basic, Bearer for jwt: a fresh token), or empty when the stack runs without authentication.
     */
    static java.util.Optional<String> adminAuthorization(Path dataDir) {
        Path file = dataDir.resolve("auth").resolve("credentials.properties");
        if (!Files.isReadable(file)) {
            return java.util.Optional.empty();
        }
        Properties credentials = new Properties();
        try (Reader in = Files.newBufferedReader(file)) {
            credentials.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
        // a jwt start rewrites the file with tokens only; an http_basic start after a jwt one keeps them beside the passwords
        String password = credentials.getProperty("admin.password");
        if (password != null) {
            return java.util.Optional.of("Basic " + java.util.Base64.getEncoder()
                    .encodeToString(("admin:" + password).getBytes(java.nio.charset.StandardCharsets.UTF_8)));
        }
        if (credentials.getProperty("admin.token") == null) {
            return java.util.Optional.empty();
        }
        // the kept token may have expired (they are short-lived): a fresh one from the stack's key
        return java.util.Optional.of("Bearer " + StackAuth.mint(dataDir, "admin", StackAuth.DEFAULT_TOKEN_LIFETIME));
    }

    /**
     * The Kafka and registry client settings of the stack's read-only principal (the dashboard's, which {@code
     * ./ironflow up --secure} keeps in {@code secrets/dashboard.properties}, 0600), for {@code ./ironflow watch}: the
     * file's {@code kafka.*} keys without that prefix (SASL/SCRAM, TLS's trust store, the registry's basic auth).
     * Empty when the stack was not started with {@code --secure}.
     */
    static Map<String, Object> kafkaReader(Path dataDir) {
        return kafkaClient(dataDir, StackOptions.DASHBOARD);
    }

    /**
     * The same for {@code service}'s principal, from {@code secrets/<service>.properties}; empty on an open stack.
     * {@code ./ironflow bench --scale} reads the conductors' consumer group as the conductor.
     */
    static Map<String, Object> kafkaClient(Path dataDir, String service) {
        Path file = dataDir.resolve("secrets").resolve(service + ".properties");
        Map<String, Object> client = new LinkedHashMap<>();
        if (!Files.isReadable(file)) {
            return client;
        }
        Properties properties = new Properties();
        try (Reader in = Files.newBufferedReader(file)) {
            properties.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
        for (String key : properties.stringPropertyNames()) {
            if (key.startsWith("kafka.")) {
                client.put(key.substring("kafka.".length()), properties.getProperty(key));
            }
        }
        return client;
    }

    private static Map<String, String> database(Path dataDir) {
        Map<String, String> secrets = new LinkedHashMap<>();
        Path file = dataDir.resolve("secrets").resolve("database.properties");
        Properties properties = new Properties();
        if (Files.isReadable(file)) {
            try (Reader in = Files.newBufferedReader(file)) {
                properties.load(in);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read " + file, e);
            }
        }
        for (String key : new String[] {EmbeddedPostgresServer.OWNER_PASSWORD, EmbeddedPostgresServer.READER_PASSWORD}) {
            String value = System.getenv(Infrastructure.environmentVariable(key));
            value = value != null ? value : properties.getProperty(key);
            if (value == null) {
                throw new IllegalStateException("no " + key + ": neither " + file + " nor the environment variable "
                        + Infrastructure.environmentVariable(key) + " has it (--data-dir names the stack's data directory)");
            }
            secrets.put(key, value);
        }
        return secrets;
    }
}
