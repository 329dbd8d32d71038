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

    /** The roles' passwords as the services' environment variables, as the launcher gave them to its services. */
    static Map<String, String> serviceEnvironment(Path dataDir) {
        Map<String, String> environment = new LinkedHashMap<>();
        database(dataDir).forEach((key, value) -> environment.put(Infrastructure.environmentVariable(key), value));
        return environment;
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
