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
            if (t instanceof SocketException || t instanceof ClosedChannelException || t instanceof io.vertx.core.VertxException
                    || t instanceof io.vertx.core.impl.NoStackTraceThrowable) {
                return true; // refused, reset or closed connections (netty's and Vert.x's; the SQL client's "Fail to read
                             // any response from the server" is a NoStackTraceThrowable)
            }
            if (t instanceof PgException pg && pg.getSqlState() != null
                    && (pg.getSqlState().startsWith("08") || pg.getSqlState().startsWith("57P") || pg.getSqlState().equals("53300"))) {
                return true; // connection exceptions, the server shutting down or starting, too many connections
            }
            if ("Pool closed".equals(t.getMessage())) {
                return true;
            }
        }
        return false;
    }
}
