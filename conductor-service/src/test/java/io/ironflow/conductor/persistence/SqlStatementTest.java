package io.ironflow.conductor.persistence;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.vertx.core.buffer.Buffer;
import io.vertx.mutiny.sqlclient.Tuple;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** {@link SqlStatement} gives the plain client PostgreSQL's markers and values in the types its codec encodes. */
class SqlStatementTest {

    @Test
    void numberedParametersBecomePostgresMarkers() {
        SqlStatement statement = new SqlStatement("WITH a AS (INSERT INTO t VALUES (?1, ?2)) UPDATE u SET x = ?12 WHERE y = ?3",
                Arrays.asList(1, 2, 3));
        assertEquals("WITH a AS (INSERT INTO t VALUES ($1, $2)) UPDATE u SET x = $12 WHERE y = $3", statement.pgSql());
    }

    @Test
    void instantsAndBytesAreConvertedAndNullsKept() {
        Instant at = Instant.parse("2026-11-27T10:00:00.123456Z");
        UUID uuid = UUID.randomUUID();
        Tuple tuple = new SqlStatement("?1 ?2 ?3 ?4 ?5", Arrays.asList(at, new byte[] {0, 1, 2}, null, uuid, "text")).tuple();
        assertEquals(5, tuple.size());
        assertEquals(OffsetDateTime.ofInstant(at, ZoneOffset.UTC), tuple.getValue(0));
        assertArrayEquals(new byte[] {0, 1, 2}, ((Buffer) tuple.getValue(1)).getBytes());
        assertNull(tuple.getValue(2));
        assertEquals(uuid, tuple.getValue(3));
        assertEquals("text", tuple.getValue(4));
    }
}
