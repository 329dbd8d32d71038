package io.ironflow.api.errors;

import io.vertx.pgclient.PgException;
import java.net.SocketException;
import java.nio.channels.ClosedChannelException;

/**
 * Whether a failure says a dependency is away (the node database restarting, a connection refused or cut), not
 * that the API is broken: such a request is answered 503, as Ironic answers when its database is gone, and the
 * client retries.
 */
final class DependencyDown {

    private DependencyDown() {
    }

    static boolean causes(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            // The database's own verdict first: its PgException is also a VertxException, which alone would make a
            // missing grant or a bad statement (ours to fix, a 500) look like the database away (a 503, retried).
            if (t instanceof PgException pg) {
                String state = pg.getSqlState() == null ? "" : pg.getSqlState();
                // connection exceptions, the server shutting down or starting, a statement past statement_timeout
                // (a stalled database), too many connections, and a schema the conductor has not created yet
                return state.startsWith("08") || state.startsWith("57P") || state.equals("57014") || state.equals("53300")
                        || state.equals("42P01");
            }
            if (t instanceof SocketException || t instanceof ClosedChannelException || t instanceof io.vertx.core.VertxException
                    || t instanceof io.vertx.core.impl.NoStackTraceThrowable) {
                return true; // refused, reset or closed connections (netty's and Vert.x's; the SQL client's "Fail to read
                             // any response from the server" is a NoStackTraceThrowable)
            }
            if ("Pool closed".equals(t.getMessage())) {
                return true;
            }
        }
        return false;
    }
}
