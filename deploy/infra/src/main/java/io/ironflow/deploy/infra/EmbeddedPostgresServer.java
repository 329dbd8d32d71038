package io.ironflow.deploy.infra;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * PostgreSQL from Maven-packaged binaries (zonky), no system install. The data directory is kept between runs.
 * It creates the {@value #DATABASE} database, owned by the {@value #OWNER} role the conductor migrates and
 * writes with, and the {@value #READER} role the API reads with (granted SELECT by the migrations).
 */
public final class EmbeddedPostgresServer implements AutoCloseable {

    public static final String DATABASE = "ironflow";
    public static final String OWNER = "ironflow";
    public static final String READER = "ironflow_api";

    private final EmbeddedPostgres postgres;

    private EmbeddedPostgresServer(EmbeddedPostgres postgres) {
        this.postgres = postgres;
    }

    public static EmbeddedPostgresServer start(Path dataDir, int port) throws IOException {
        Path runtime = dataDir.resolve("postgres-runtime");
        Files.createDirectories(runtime);
        EmbeddedPostgres postgres = EmbeddedPostgres.builder()
                .setPort(port)
                .setDataDirectory(dataDir.resolve("postgres"))
                .setCleanDataDirectory(false)
                // Binaries are unpacked here instead of the system temp directory.
                .setOverrideWorkingDirectory(runtime.toFile())
                .start();
        EmbeddedPostgresServer server = new EmbeddedPostgresServer(postgres);
        server.createDatabaseAndRoles();
        return server;
    }

    private void createDatabaseAndRoles() throws IOException {
        try (Connection c = postgres.getPostgresDatabase().getConnection(); Statement s = c.createStatement()) {
            for (String role : new String[] {OWNER, READER}) {
                if (!exists(s, "SELECT 1 FROM pg_roles WHERE rolname = '" + role + "'")) {
                    s.execute("CREATE ROLE " + role + " LOGIN PASSWORD '" + role + "'");
                }
            }
            if (!exists(s, "SELECT 1 FROM pg_database WHERE datname = '" + DATABASE + "'")) {
                s.execute("CREATE DATABASE " + DATABASE + " OWNER " + OWNER);
            }
        } catch (SQLException e) {
            throw new IOException("cannot prepare the ironflow database", e);
        }
    }

    private static boolean exists(Statement s, String query) throws SQLException {
        try (var rs = s.executeQuery(query)) {
            return rs.next();
        }
    }

    public int port() {
        return postgres.getPort();
    }

    public String jdbcUrl() {
        return "jdbc:postgresql://127.0.0.1:" + port() + "/" + DATABASE;
    }

    public String reactiveUrl() {
        return "postgresql://127.0.0.1:" + port() + "/" + DATABASE;
    }

    @Override
    public void close() throws IOException {
        postgres.close();
    }
}
