package io.ironflow.api;

import io.ironflow.deploy.infra.EmbeddedPostgresServer;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;

/**
 * Conductors and their driver registrations as the conductor writes them (its DriverRegistration and heartbeat),
 * for API tests that run no conductor. The tables come from the conductor's migrations ({@link NodeTable#migrate}).
 */
final class DriverTable {

    static final String LIVE = "conductor-live";
    static final String SILENT = "conductor-silent";

    /** What the conductor registers for fake-hardware (conductor-service FakeHardware). */
    static final String FAKE_INTERFACES = "{"
            + "\"bios\": {\"default\": \"fake\", \"enabled\": [\"fake\", \"no-bios\"]},"
            + "\"boot\": {\"default\": \"fake\", \"enabled\": [\"fake\"]},"
            + "\"console\": {\"default\": \"no-console\", \"enabled\": [\"no-console\"]},"
            + "\"deploy\": {\"default\": \"fake\", \"enabled\": [\"fake\"]},"
            + "\"inspect\": {\"default\": \"fake\", \"enabled\": [\"fake\", \"no-inspect\"]},"
            + "\"management\": {\"default\": \"fake\", \"enabled\": [\"fake\"]},"
            + "\"network\": {\"default\": \"noop\", \"enabled\": [\"noop\"]},"
            + "\"power\": {\"default\": \"fake\", \"enabled\": [\"fake\"]},"
            + "\"raid\": {\"default\": \"fake\", \"enabled\": [\"fake\", \"no-raid\"]},"
            + "\"rescue\": {\"default\": \"fake\", \"enabled\": [\"fake\", \"no-rescue\"]},"
            + "\"storage\": {\"default\": \"noop\", \"enabled\": [\"noop\"]},"
            + "\"vendor\": {\"default\": \"no-vendor\", \"enabled\": [\"no-vendor\"]}}";
    static final String FAKE_PROPERTIES = "{\"fake_agent_steps\": \"Set to true to simulate agent steps. Optional.\","
            + " \"fake_fail_verify\": \"Set to true to make verification (manage) fail. Optional.\"}";
    /** The catalogue in catalogue order (not priority order), as the conductor stores it. */
    static final String FAKE_STEPS = "["
            + step("management", "update_firmware", 0, false, "[{\"name\": \"firmware_images\", \"description\": \"images\", \"required\": true}]") + ","
            + step("deploy", "erase_devices", 10, true, "[]") + ","
            + step("deploy", "erase_devices_metadata", 99, false, "[]") + ","
            + step("bios", "factory_reset", 0, false, "[]") + ","
            + step("raid", "create_configuration", 0, true,
                    "[{\"name\": \"create_root_volume\", \"description\": \"root\", \"required\": false}]") + "]";

    private static final String OWNER = EmbeddedPostgresServer.OWNER;

    /** The owner role's password the test infrastructure generated for this run. */
    private static String ownerPassword() {
        return org.eclipse.microprofile.config.ConfigProvider.getConfig()
                .getValue(EmbeddedPostgresServer.OWNER_PASSWORD, String.class);
    }

    private DriverTable() {
    }

    static String step(String iface, String step, int priority, boolean abortable, String args) {
        return "{\"interface\": \"" + iface + "\", \"step\": \"" + step + "\", \"priority\": " + priority
                + ", \"abortable\": " + abortable + ", \"args\": " + args + "}";
    }

    /**
     * A live conductor offering fake-hardware, and a conductor silent for ten minutes that offered fake-hardware
     * and "ipmi". Idempotent; refreshes the live one's heartbeat.
     */
    static void register(String jdbcUrl) {
        heartbeat(jdbcUrl, LIVE, Instant.now());
        heartbeat(jdbcUrl, SILENT, Instant.now().minus(Duration.ofMinutes(10)));
        driver(jdbcUrl, LIVE, "fake-hardware", FAKE_INTERFACES, FAKE_PROPERTIES, FAKE_STEPS);
        driver(jdbcUrl, SILENT, "fake-hardware", FAKE_INTERFACES, FAKE_PROPERTIES, FAKE_STEPS);
        driver(jdbcUrl, SILENT, "ipmi", FAKE_INTERFACES, "{}", "[]");
    }

    static void heartbeat(String jdbcUrl, String hostname, Instant at) {
        execute(jdbcUrl, "INSERT INTO conductors (hostname, started_at, heartbeat_at) VALUES (?, ?, ?)"
                + " ON CONFLICT (hostname) DO UPDATE SET heartbeat_at = excluded.heartbeat_at",
                hostname, Timestamp.from(at), Timestamp.from(at));
    }

    static void driver(String jdbcUrl, String conductor, String driver, String interfaces, String properties, String steps) {
        execute(jdbcUrl, "INSERT INTO conductor_drivers (conductor, driver, interfaces, properties, clean_steps, registered_at)"
                + " VALUES (?, ?, ?::jsonb, ?::jsonb, ?::jsonb, now()) ON CONFLICT (conductor, driver) DO UPDATE SET"
                + " interfaces = excluded.interfaces, properties = excluded.properties, clean_steps = excluded.clean_steps",
                conductor, driver, interfaces, properties, steps);
    }

    static void execute(String jdbcUrl, String sql, Object... parameters) {
        try (Connection c = DriverManager.getConnection(jdbcUrl, OWNER, ownerPassword()); PreparedStatement s = c.prepareStatement(sql)) {
            for (int i = 0; i < parameters.length; i++) {
                s.setObject(i + 1, parameters[i]);
            }
            s.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException("cannot run " + sql, e);
        }
    }
}
