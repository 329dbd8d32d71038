package io.ironflow.conductor.testing;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.UUID;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigProvider;

/**
 * The tests' direct line to the conductor's PostgreSQL, as the datasource's own user (read from the test's
 * configuration, so it follows whatever credentials the conductor is given): one value read, one statement run, or
 * one outbox row added.
 */
public final class Sql {

    private Sql() {
    }

    /** The first column of the first row {@code sql} answers; null when it answers no row. */
    public static String query(String sql) throws SQLException {
        try (Connection connection = connect(); var rs = connection.createStatement().executeQuery(sql)) {
            return rs.next() ? rs.getString(1) : null;
        }
    }

    public static void execute(String sql) throws SQLException {
        try (Connection connection = connect()) {
            connection.createStatement().execute(sql);
        }
    }

    /** Adds an outbox row for {@code key} on {@code topic}, as a committed intent would; the relay publishes it. */
    public static void insertOutboxRow(String key, String topic, byte[] payload) throws SQLException {
        try (Connection c = connect(); PreparedStatement row = c.prepareStatement("INSERT INTO outbox"
                + " (id, aggregatetype, aggregateid, type, payload, created_at) VALUES (?, 'node', ?, ?, ?, now())")) {
            row.setObject(1, UUID.randomUUID());
            row.setString(2, key);
            row.setString(3, topic);
            row.setBytes(4, payload);
            row.executeUpdate();
        }
    }

    /** A connection of its own, for a test that holds a lock or a transaction open. */
    public static Connection connect() throws SQLException {
        Config config = ConfigProvider.getConfig();
        return DriverManager.getConnection(config.getValue("quarkus.datasource.jdbc.url", String.class),
                config.getValue("quarkus.datasource.username", String.class),
                config.getValue("quarkus.datasource.password", String.class));
    }
}
