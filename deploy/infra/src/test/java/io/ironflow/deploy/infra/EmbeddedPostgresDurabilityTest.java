package io.ironflow.deploy.infra;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The local stack's PostgreSQL flushes every commit (zonky starts servers with fsync off and asynchronous commits,
 * which a crash could cost acknowledged intents); a test's throwaway database keeps zonky's fast defaults.
 */
class EmbeddedPostgresDurabilityTest {

    @Test
    void aDurableServerFlushesEveryCommitAndATestServerDoesNot(@TempDir Path durable, @TempDir Path throwaway) throws Exception {
        assertEquals("on on", settings(durable, true));
        assertEquals("off off", settings(throwaway, false));
    }

    private static String settings(Path dataDir, boolean durable) throws Exception {
        try (EmbeddedPostgresServer server = EmbeddedPostgresServer.start(dataDir, Ports.free(1)[0], durable);
                Connection c = DriverManager.getConnection(server.jdbcUrl(), EmbeddedPostgresServer.OWNER, server.ownerPassword());
                Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT current_setting('fsync') || ' ' || current_setting('synchronous_commit')")) {
            rs.next();
            return rs.getString(1);
        }
    }
}
