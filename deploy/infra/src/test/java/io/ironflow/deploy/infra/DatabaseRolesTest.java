package io.ironflow.deploy.infra;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ironflow.deploy.testing.TestDirectories;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Least privilege in the database (issue 58), on the real migrations: the conductor's (as the owner, as the
 * conductor runs them) and the teardown orchestrator's (as its own role, in its own schema). The API's role reads
 * the node tables and may change none of them; the teardown orchestrator's role owns its schema and may neither
 * read nor write the node tables, nor create anything beside its schema.
 */
class DatabaseRolesTest {

    private static final Path ROOT = Path.of(System.getProperty("ironflow.home", "../.."));
    /** The tables the conductor alone writes and the API reads. */
    private static final List<String> NODE_TABLES = List.of("nodes", "ports", "portgroups", "node_history", "conductors",
            "conductor_drivers", "processed_intents");
    private static final String INSUFFICIENT_PRIVILEGE = "42501";

    private static Path dataDir;
    private static EmbeddedPostgresServer postgres;

    @BeforeAll
    static void startAndMigrate() throws Exception {
        dataDir = Path.of(System.getProperty("ironflow.test.dir", "target/ironflow-test")).toAbsolutePath()
                .resolve(UUID.randomUUID().toString());
        postgres = EmbeddedPostgresServer.start(dataDir, Ports.free(1)[0], false);
        try (Connection owner = connect(EmbeddedPostgresServer.OWNER, postgres.ownerPassword(), "")) {
            migrate(owner, ROOT.resolve("conductor-service/src/main/resources/db/migration"));
        }
        try (Connection teardown = connect(EmbeddedPostgresServer.TEARDOWN, postgres.teardownPassword(), "?currentSchema=teardown")) {
            migrate(teardown, ROOT.resolve("teardown-orchestrator/src/main/resources/db/teardown"));
        }
    }

    @AfterAll
    static void stop() throws Exception {
        if (postgres != null) {
            postgres.close();
        }
        TestDirectories.deleteRecursively(dataDir);
    }

    @Test
    void theApiRoleReadsTheNodeTablesAndChangesNone() throws Exception {
        try (Connection api = connect(EmbeddedPostgresServer.READER, postgres.readerPassword(), "");
                Statement s = api.createStatement()) {
            for (String table : NODE_TABLES) {
                s.executeQuery("SELECT count(*) FROM " + table).close();
                String column = firstColumn(s, table); // one an UPDATE may set (not an identity)
                for (String write : List.of("INSERT INTO " + table + " DEFAULT VALUES",
                        "UPDATE " + table + " SET " + column + " = " + column, "DELETE FROM " + table,
                        "TRUNCATE " + table)) {
                    assertRefused(s, write);
                }
            }
            assertRefused(s, "CREATE TABLE public.api_was_here (id int)");
        }
    }

    @Test
    void theTeardownRoleOwnsItsSchemaAndReachesNoNodeTable() throws Exception {
        try (Connection teardown = connect(EmbeddedPostgresServer.TEARDOWN, postgres.teardownPassword(), "?currentSchema=teardown");
                Statement s = teardown.createStatement()) {
            s.execute("CREATE TABLE teardown.probe (id int)"); // its own schema
            s.execute("DROP TABLE teardown.probe");
            for (String table : NODE_TABLES) {
                assertRefused(s, "SELECT count(*) FROM public." + table);
                assertRefused(s, "DELETE FROM public." + table);
            }
            assertRefused(s, "CREATE TABLE public.teardown_was_here (id int)");
        }
    }

    @Test
    void theTeardownSchemaAndItsTablesBelongToTheTeardownRole() throws Exception {
        try (Connection owner = connect(EmbeddedPostgresServer.OWNER, postgres.ownerPassword(), "");
                Statement s = owner.createStatement();
                var rs = s.executeQuery("SELECT tableowner FROM pg_tables WHERE schemaname = 'teardown'")) {
            int tables = 0;
            while (rs.next()) {
                assertEquals(EmbeddedPostgresServer.TEARDOWN, rs.getString(1));
                tables++;
            }
            assertTrue(tables > 0, "the teardown migrations made no table");
        }
    }

    /**
     * A data directory from before the orchestrator had a role of its own: its schema and tables belong to the owner.
     * The next start hands them over, so the orchestrator's migrations and work go on as its own role.
     */
    @Test
    void aDataDirectoryFromBeforeHandsItsTeardownSchemaOver() throws Exception {
        String superuser = SecretFile.open(dataDir.resolve("secrets/database.properties")).get("ironflow.db.superuser-password");
        try (Connection admin = DriverManager.getConnection(postgres.jdbcUrl(), "postgres", superuser);
                Statement s = admin.createStatement()) {
            s.execute("CREATE TABLE teardown.legacy (id bigserial PRIMARY KEY)");
            s.execute("ALTER TABLE teardown.legacy OWNER TO " + EmbeddedPostgresServer.OWNER);
            s.execute("ALTER SCHEMA teardown OWNER TO " + EmbeddedPostgresServer.OWNER);
        }
        int port = postgres.port();
        postgres.close();
        postgres = EmbeddedPostgresServer.start(dataDir, port, false);
        try (Connection teardown = connect(EmbeddedPostgresServer.TEARDOWN, postgres.teardownPassword(), "");
                Statement s = teardown.createStatement()) {
            s.execute("INSERT INTO teardown.legacy DEFAULT VALUES"); // its sequence moved with it
            s.execute("DROP TABLE teardown.legacy");
            try (var rs = s.executeQuery("SELECT pg_get_userbyid(nspowner) FROM pg_namespace WHERE nspname = 'teardown'")) {
                rs.next();
                assertEquals(EmbeddedPostgresServer.TEARDOWN, rs.getString(1));
            }
        }
    }

    private static void assertRefused(Statement s, String sql) {
        SQLException refused = assertThrows(SQLException.class, () -> s.execute(sql), sql);
        assertEquals(INSUFFICIENT_PRIVILEGE, refused.getSQLState(), sql + ": " + refused.getMessage());
    }

    private static String firstColumn(Statement s, String table) throws SQLException {
        try (var rs = s.executeQuery("SELECT column_name FROM information_schema.columns WHERE table_schema = 'public'"
                + " AND table_name = '" + table + "' AND is_identity = 'NO' AND is_generated = 'NEVER'"
                + " ORDER BY ordinal_position LIMIT 1")) {
            rs.next();
            return rs.getString(1);
        }
    }

    private static Connection connect(String role, String password, String options) throws SQLException {
        return DriverManager.getConnection(postgres.jdbcUrl() + options, role, password);
    }

    /** Flyway's order: by version number; each file as one script (dollar-quoted blocks included). */
    private static void migrate(Connection connection, Path directory) throws Exception {
        List<Path> scripts = new ArrayList<>();
        try (var files = Files.list(directory)) {
            files.filter(f -> f.getFileName().toString().matches("V\\d+__.*\\.sql")).forEach(scripts::add);
        }
        scripts.sort(Comparator.comparingInt(f -> Integer.parseInt(f.getFileName().toString().replaceAll("^V(\\d+)__.*", "$1"))));
        try (Statement s = connection.createStatement()) {
            for (Path script : scripts) {
                s.execute(Files.readString(script));
            }
        }
    }
}
