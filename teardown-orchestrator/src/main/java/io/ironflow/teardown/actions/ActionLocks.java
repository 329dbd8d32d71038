package io.ironflow.teardown.actions;

import io.agroal.api.AgroalDataSource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Optional;
import org.jboss.logging.Logger;

/**
 * At most one orchestrator instance runs an action: the runner holds a PostgreSQL session advisory lock on the
 * action ({@code pg_try_advisory_lock(LOCK_CLASS, hashtext(id))}) on a connection of its own for as long as it
 * runs it. PostgreSQL releases the lock when that session ends, so an instance that dies gives its actions up and
 * another instance's periodic rescan takes them over. Two ids with the same hash only delay each other.
 */
@ApplicationScoped
public class ActionLocks {

    /** The lock space of teardown actions (advisory locks are database-wide). */
    public static final int LOCK_CLASS = 0x7EA2;
    private static final Logger LOG = Logger.getLogger(ActionLocks.class);

    @Inject
    AgroalDataSource db;

    /** A held lock; closing it releases the lock and its connection. */
    public interface Held extends AutoCloseable {
        @Override
        void close();
    }

    /** The lock on action {@code id}, or empty when another instance holds it. */
    public Optional<Held> tryLock(String id) {
        Connection c = null;
        try {
            c = db.getConnection();
            try (PreparedStatement lock = c.prepareStatement("SELECT pg_try_advisory_lock(?, hashtext(?))")) {
                lock.setInt(1, LOCK_CLASS);
                lock.setString(2, id);
                try (ResultSet rs = lock.executeQuery()) {
                    rs.next();
                    if (!rs.getBoolean(1)) {
                        c.close();
                        return Optional.empty();
                    }
                }
            }
            Connection held = c;
            return Optional.of(() -> release(held, id));
        } catch (SQLException e) {
            if (c != null) {
                try {
                    c.close();
                } catch (SQLException ignored) {
                    // already failing
                }
            }
            throw new IllegalStateException("the action lock failed: " + e.getMessage(), e);
        }
    }

    private static void release(Connection c, String id) {
        try (c; PreparedStatement unlock = c.prepareStatement("SELECT pg_advisory_unlock(?, hashtext(?))")) {
            unlock.setInt(1, LOCK_CLASS);
            unlock.setString(2, id);
            unlock.execute();
        } catch (SQLException e) {
            // The session ending releases it anyway; a pooled connection that failed here is discarded by the pool.
            LOG.warnf("action %s: releasing its lock failed: %s", id, e.getMessage());
        }
    }
}
