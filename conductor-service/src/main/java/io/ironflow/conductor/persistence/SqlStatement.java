package io.ironflow.conductor.persistence;

import io.vertx.core.buffer.Buffer;
import io.vertx.mutiny.sqlclient.Tuple;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.List;

/**
 * A statement of our own and its parameters, written once for both clients: with JPA's numbered parameters
 * ({@code ?1}, as Hibernate's native queries take them) in {@link #sql}, and as the plain reactive client takes it
 * ({@code $1}, values in the types its PostgreSQL codec encodes) from {@link #pgSql} and {@link #tuple}. The SQL
 * is ours, so a {@code ?} followed by digits is always a parameter, never text in a literal.
 */
public record SqlStatement(String sql, List<Object> parameters) {

    public SqlStatement {
        parameters = Arrays.asList(parameters.toArray()); // a copy that keeps nulls
    }

    /** {@link #sql} with PostgreSQL's parameter markers. */
    public String pgSql() {
        return sql.replace('?', '$');
    }

    /**
     * The parameters as the plain client encodes them: an instant as a timestamp with a zone, bytes as a buffer
     * (Hibernate converts both itself).
     */
    public Tuple tuple() {
        Tuple tuple = Tuple.tuple();
        for (Object value : parameters) {
            tuple.addValue(value instanceof Instant instant ? OffsetDateTime.ofInstant(instant, ZoneOffset.UTC)
                    : value instanceof byte[] bytes ? Buffer.buffer(bytes) : value);
        }
        return tuple;
    }
}
