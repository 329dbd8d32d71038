package io.ironflow.api;

import io.ironflow.deploy.infra.EmbeddedPostgresServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.ResultSet;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.UUID;
import org.flywaydb.core.Flyway;

/**
 * The conductor owns the node table; no conductor runs in these tests, so they migrate the database with the
 * conductor's own Flyway scripts (from its source tree, so they are never a copy) and write rows as it would.
 */
final class NodeTable {

    private static final Path MIGRATIONS = Path.of("../conductor-service/src/main/resources/db/migration");
    private static final String OWNER = EmbeddedPostgresServer.OWNER;

    /** The owner role's password the test infrastructure generated for this run. */
    private static String ownerPassword() {
        return org.eclipse.microprofile.config.ConfigProvider.getConfig()
                .getValue(EmbeddedPostgresServer.OWNER_PASSWORD, String.class);
    }

    private NodeTable() {
    }

    /** Records a conductor's answer to an intent, as the conductor does with the change it makes. */
    static void recordAnswer(String jdbcUrl, String intentId, String nodeUuid, boolean accepted, int code, String message) {
        try (Connection c = DriverManager.getConnection(jdbcUrl, OWNER, ownerPassword());
                PreparedStatement s = c.prepareStatement("INSERT INTO processed_intents"
                        + " (intent_id, node_uuid, accepted, code, error_message, processed_at) VALUES (?, ?::uuid, ?, ?, ?, now())")) {
            s.setString(1, intentId);
            s.setString(2, nodeUuid);
            s.setBoolean(3, accepted);
            s.setInt(4, code);
            s.setString(5, message);
            s.executeUpdate();
        } catch (java.sql.SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Idempotent: Flyway applies only what is missing. */
    static void migrate(String jdbcUrl) {
        if (!Files.isDirectory(MIGRATIONS)) {
            throw new IllegalStateException("conductor migrations not found at " + MIGRATIONS.toAbsolutePath());
        }
        Flyway.configure().dataSource(jdbcUrl, OWNER, ownerPassword())
                .locations("filesystem:" + MIGRATIONS.toAbsolutePath())
                .load().migrate();
    }

    /** The uuids of the nodes {@code project} owns or leases, as the table has them (other tests' nodes too). */
    static java.util.Set<String> ownedOrLeasedBy(String jdbcUrl, String project) {
        java.util.Set<String> uuids = new java.util.HashSet<>();
        try (Connection c = DriverManager.getConnection(jdbcUrl, OWNER, ownerPassword());
                PreparedStatement s = c.prepareStatement("SELECT uuid FROM nodes WHERE owner = ? OR lessee = ?")) {
            s.setString(1, project);
            s.setString(2, project);
            try (java.sql.ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    uuids.add(rs.getString(1));
                }
            }
        } catch (java.sql.SQLException e) {
            throw new IllegalStateException(e);
        }
        return uuids;
    }

    /** A node row as the conductor writes one; answers its uuid. */
    static String insert(String jdbcUrl, Row row) {
        String uuid = UUID.randomUUID().toString();
        String sql = "INSERT INTO nodes (uuid, name, driver, provision_state, target_provision_state, power_state, "
                + "target_power_state, last_error, reservation, revision, created_at, provision_updated_at) "
                + "VALUES (?, ?, 'fake-hardware', ?, ?, ?, ?, ?, ?, 1, now(), ?)";
        try (Connection c = DriverManager.getConnection(jdbcUrl, OWNER, ownerPassword());
                PreparedStatement s = c.prepareStatement(sql)) {
            s.setObject(1, UUID.fromString(uuid));
            s.setString(2, row.name());
            s.setString(3, row.provisionState());
            s.setString(4, row.targetProvisionState());
            s.setString(5, row.powerState());
            s.setString(6, row.targetPowerState());
            s.setString(7, row.lastError());
            s.setString(8, row.reservation());
            s.setTimestamp(9, row.provisionUpdatedAt() == null ? null : Timestamp.from(row.provisionUpdatedAt()));
            s.executeUpdate();
            return uuid;
        } catch (SQLException e) {
            throw new IllegalStateException("cannot insert a node row", e);
        }
    }

    /** Sets one column of a node row, as a conductor's change would. */
    static void set(String jdbcUrl, String uuid, String column, Object value) {
        try (Connection c = DriverManager.getConnection(jdbcUrl, OWNER, ownerPassword());
                PreparedStatement s = c.prepareStatement("UPDATE nodes SET " + column + " = ? WHERE uuid = ?")) {
            s.setObject(1, value);
            s.setObject(2, UUID.fromString(uuid));
            s.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException("cannot update a node row", e);
        }
    }

    /** Runs one statement as the conductor's role would (history rows, the fake-hardware record, new columns). */
    static void execute(String jdbcUrl, String sql, Object... values) {
        try (Connection c = DriverManager.getConnection(jdbcUrl, OWNER, ownerPassword());
                PreparedStatement s = c.prepareStatement(sql)) {
            for (int i = 0; i < values.length; i++) {
                s.setObject(i + 1, values[i]);
            }
            s.execute();
        } catch (SQLException e) {
            throw new IllegalStateException("cannot run " + sql, e);
        }
    }

    /** A digest of every row of the node table, to show that something changed none of them. */
    static String digest(String jdbcUrl) {
        try (Connection c = DriverManager.getConnection(jdbcUrl, OWNER, ownerPassword());
                Statement s = c.createStatement();
                ResultSet rows = s.executeQuery("SELECT count(*) || ':' || coalesce(md5(string_agg(n::text, '|' ORDER BY uuid)), '')"
                        + " FROM nodes n")) {
            rows.next();
            return rows.getString(1);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read the node table", e);
        }
    }

    record Row(String name, String provisionState, String targetProvisionState, String powerState,
            String targetPowerState, String lastError, String reservation, Instant provisionUpdatedAt) {

        /** A named node enrolled and powered off, nothing in flight. */
        static Row named(String name) {
            return new Row(name, "enroll", null, "power off", null, null, null, null);
        }
    }
}
