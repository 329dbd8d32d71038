package io.ironflow.api.errors;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.VertxException;
import io.vertx.pgclient.PgException;
import java.net.ConnectException;
import org.junit.jupiter.api.Test;

/**
 * A database away is a 503 the client retries; a statement the database refuses for good (a missing grant after a
 * migration, a column a partial upgrade lacks) is a fault of ours, a 500: retried, it fails the same way.
 */
class DependencyDownTest {

    @Test
    void theDatabasesOwnVerdictDecides() {
        assertTrue(DependencyDown.causes(new PgException("terminating connection", "FATAL", "57P01", null)));
        assertTrue(DependencyDown.causes(new PgException("connection failure", "FATAL", "08006", null)));
        assertTrue(DependencyDown.causes(new PgException("too many clients", "FATAL", "53300", null)));
        assertTrue(DependencyDown.causes(new PgException("canceling statement due to statement timeout", "ERROR", "57014", null)),
                "a statement past statement_timeout: the database stalled");
        assertTrue(DependencyDown.causes(new PgException("relation \"nodes\" does not exist", "ERROR", "42P01", null)),
                "the schema not created yet: the conductor migrates it");
        assertFalse(DependencyDown.causes(new PgException("permission denied for table nodes", "ERROR", "42501", null)));
        assertFalse(DependencyDown.causes(new RuntimeException(new PgException("column does not exist", "ERROR", "42703", null))));
        assertTrue(DependencyDown.causes(new RuntimeException(new ConnectException("Connection refused"))));
        assertTrue(DependencyDown.causes(new VertxException("Connection was closed", true)));
    }
}
