package io.ironflow.conductor.persistence;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.JsonParseException;
import io.smallrye.mutiny.CompositeException;
import io.vertx.pgclient.PgException;
import io.vertx.sqlclient.ClosedConnectionException;
import java.io.IOException;
import java.net.SocketException;
import java.nio.channels.ClosedChannelException;
import org.junit.jupiter.api.Test;

/**
 * {@link Failures} retries what a database or network away for a moment causes, and answers at once what would
 * fail the same way again. The socket's failures are the ones the fault suite's PostgreSQL restart produces.
 */
class FailuresTest {

    @Test
    void aConnectionLostOrRefusedMayPass() {
        assertTrue(Failures.isTransient(new IOException("Broken pipe")), "a statement written to a server that went away");
        assertTrue(Failures.isTransient(new RuntimeException(new IOException("Connection reset by peer"))));
        assertTrue(Failures.isTransient(new SocketException("Connection refused")));
        assertTrue(Failures.isTransient(new ClosedChannelException()));
        assertTrue(Failures.isTransient(ClosedConnectionException.INSTANCE));
        assertTrue(Failures.isTransient(new CompositeException(new IllegalStateException("the rollback"),
                new IOException("Broken pipe"))), "a failure and its rollback's: one may pass");
    }

    @Test
    void theDatabaseSaysWhichOfItsErrorsMayPass() {
        assertTrue(Failures.isTransient(new PgException("terminating connection", "FATAL", "57P01", null)));
        assertTrue(Failures.isTransient(new PgException("duplicate key", "ERROR", "23505", null)));
        assertTrue(Failures.isTransient(new PgException("lock timeout", "ERROR", "55P03", null)));
        assertFalse(Failures.isTransient(new PgException("null value", "ERROR", "23502", null)));
    }

    @Test
    void dataThatFailsFailsAgain() {
        assertFalse(Failures.isTransient(new JsonParseException(null, "not JSON")), "Jackson's IOExceptions are about data");
        assertFalse(Failures.isTransient(new IllegalStateException("a bug")));
        assertFalse(Failures.isTransient(new NullPointerException()));
    }
}
