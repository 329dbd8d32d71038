package io.ironflow.conductor.persistence;

import com.fasterxml.jackson.core.JacksonException;
import io.smallrye.mutiny.CompositeException;
import io.vertx.core.impl.NoStackTraceThrowable;
import io.vertx.pgclient.PgException;
import java.io.IOException;
import java.util.Set;
import org.hibernate.JDBCException;

/**
 * Tells a failure that may pass on its own (the database or the network away for a moment, a lock or deadline
 * that ran out, a race the next attempt decides differently) from one that will fail the same way every time
 * (a bug, or data the checks let through). The first is worth a bounded retry; the second is answered at once.
 */
public final class Failures {

    /**
     * SQLSTATE classes and codes that say "try again": connection exceptions, transaction rollbacks (serialization,
     * deadlock), insufficient resources, operator intervention (shutdown, statement timeout), lock not available,
     * and a unique violation (a name raced from another partition: the retry answers 409).
     */
    private static final Set<String> TRANSIENT_CLASSES = Set.of("08", "40", "53", "57");
    private static final Set<String> TRANSIENT_CODES = Set.of("55P03", "23505");

    private Failures() {
    }

    public static boolean isTransient(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof CompositeException composite) { // a failure and the rollback's: any one that may pass
                return composite.getCauses().stream().anyMatch(Failures::isTransient);
            }
            // the database's own verdict first: its PgException is also a VertxException, which alone would pass
            String state = t instanceof PgException pg ? pg.getSqlState()
                    : t instanceof JDBCException jdbc ? jdbc.getSQLState() : null;
            if (state != null && state.length() == 5) {
                return TRANSIENT_CLASSES.contains(state.substring(0, 2)) || TRANSIENT_CODES.contains(state);
            }
            if (t instanceof java.util.concurrent.TimeoutException || t instanceof io.smallrye.mutiny.TimeoutException
                    // a socket's failure ("Broken pipe" on a statement written to a server that went away), but
                    // not Jackson's, which are IOExceptions about data and would fail the same way again
                    || t instanceof IOException && !(t instanceof JacksonException)
                    || t instanceof io.vertx.core.VertxException
                    || t instanceof NoStackTraceThrowable) { // the SQL client's "Connection is not active now"
                return true;
            }
        }
        return false;
    }

    /** A one-line description for logs and dead letters: the innermost cause says most. */
    public static String describe(Throwable failure) {
        Throwable root = failure;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root == failure ? failure.toString() : failure + " (caused by " + root + ")";
    }
}
