package io.ironflow.conductor.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.ironflow.conductor.persistence.PipelinedTransactions.Ending;
import io.ironflow.conductor.testing.Sql;
import io.ironflow.deploy.testing.IronflowTestInfrastructure;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;
import io.vertx.pgclient.PgException;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@link PipelinedTransactions} on a real PostgreSQL: what the work decides is committed whole or not at all,
 * whichever step fails (the first statement, the work, the last statement, which PostgreSQL's COMMIT behind it
 * turns into a rollback), a failed transaction leaves its connection clean for the next, and many at once on one
 * row serialize on its lock, none lost.
 */
@QuarkusTest
@QuarkusTestResource(IronflowTestInfrastructure.class)
class PipelinedTransactionsTest {

    private static final String TABLE = "pipelined_transactions_test";

    @Inject
    Vertx vertx;

    @Inject
    PipelinedTransactions transactions;

    @BeforeEach
    void table() throws Exception {
        Sql.execute("CREATE TABLE " + TABLE + " (id int PRIMARY KEY, n int NOT NULL)");
    }

    @AfterEach
    void drop() throws Exception {
        Sql.execute("DROP TABLE " + TABLE);
    }

    @Test
    void theFirstAndTheLastStatementCommitTogether() throws Exception {
        String result = run(insert(1), rows -> Uni.createFrom().item(Ending.commit(insert(2), "id " + rows.iterator().next().getInteger(0))));
        assertEquals("id 1", result);
        assertEquals("2", Sql.query("SELECT count(*) FROM " + TABLE));
    }

    @Test
    void aFailingLastStatementRollsTheFirstBack() throws Exception {
        Throwable failure = failure(insert(1), rows -> Uni.createFrom().item(Ending.commit(insert(1), "twice")));
        assertInstanceOf(PgException.class, failure);
        assertEquals("23505", ((PgException) failure).getSqlState(), "the duplicate key, not the COMMIT's rollback");
        assertEquals("0", Sql.query("SELECT count(*) FROM " + TABLE));
    }

    @Test
    void failingWorkRollsTheFirstBack() throws Exception {
        Throwable failure = failure(insert(1), rows -> {
            throw new IllegalStateException("the work failed");
        });
        assertEquals("the work failed", failure.getMessage());
        assertEquals("0", Sql.query("SELECT count(*) FROM " + TABLE));
    }

    @Test
    void aFailingFirstStatementRunsNoWork() throws Exception {
        Sql.execute("INSERT INTO " + TABLE + " VALUES (1, 0)");
        List<String> worked = new ArrayList<>();
        Throwable failure = failure(insert(1), rows -> {
            worked.add("work");
            return Uni.createFrom().item(Ending.commit(insert(2), "no"));
        });
        assertEquals("23505", ((PgException) failure).getSqlState());
        assertEquals(List.of(), worked);
        assertEquals("1", Sql.query("SELECT count(*) FROM " + TABLE));
    }

    @Test
    void aRollbackEndingKeepsNothingAndAnswersItsResult() throws Exception {
        assertEquals("rolled back", run(insert(1), rows -> Uni.createFrom().item(Ending.rollback("rolled back"))));
        assertEquals("0", Sql.query("SELECT count(*) FROM " + TABLE));
    }

    @Test
    void failedTransactionsLeaveTheirConnectionsClean() throws Exception {
        for (int i = 0; i < 30; i++) { // more than the pool holds: every connection fails at least once
            failure(insert(1), rows -> Uni.createFrom().item(Ending.commit(insert(1), "twice")));
            failure(insert(1), rows -> Uni.createFrom().failure(new IllegalStateException("work")));
        }
        assertEquals("ok", run(insert(1), rows -> Uni.createFrom().item(Ending.commit(insert(2), "ok"))));
        assertEquals("2", Sql.query("SELECT count(*) FROM " + TABLE), "committed, not left open in a transaction");
    }

    @Test
    void manyAtOnceOnOneRowSerializeOnItsLock() throws Exception {
        Sql.execute("INSERT INTO " + TABLE + " VALUES (1, 0)");
        SqlStatement lock = new SqlStatement("SELECT n FROM " + TABLE + " WHERE id = 1 FOR NO KEY UPDATE", List.of());
        List<CompletableFuture<Integer>> all = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            all.add(start(lock, rows -> {
                int seen = rows.iterator().next().getInteger(0);
                return Uni.createFrom().item(Ending.commit(new SqlStatement("UPDATE " + TABLE + " SET n = ?1 WHERE id = 1",
                        List.of(seen + 1)), seen));
            }));
        }
        CompletableFuture.allOf(all.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
        assertEquals("200", Sql.query("SELECT n FROM " + TABLE + " WHERE id = 1"), "each saw the one before it");
    }

    private static SqlStatement insert(int id) {
        return new SqlStatement("INSERT INTO " + TABLE + " VALUES (?1, 0) RETURNING id", List.of(id));
    }

    private <T> T run(SqlStatement first, Function<io.vertx.mutiny.sqlclient.RowSet<io.vertx.mutiny.sqlclient.Row>, Uni<Ending<T>>> work)
            throws Exception {
        return start(first, work).get(30, TimeUnit.SECONDS);
    }

    private Throwable failure(SqlStatement first,
            Function<io.vertx.mutiny.sqlclient.RowSet<io.vertx.mutiny.sqlclient.Row>, Uni<Ending<String>>> work) {
        ExecutionException failed = assertThrows(ExecutionException.class, () -> start(first, work).get(30, TimeUnit.SECONDS));
        return failed.getCause();
    }

    /** The transaction, as the conductor runs it: on a fresh Vert.x context. */
    private <T> CompletableFuture<T> start(SqlStatement first,
            Function<io.vertx.mutiny.sqlclient.RowSet<io.vertx.mutiny.sqlclient.Row>, Uni<Ending<T>>> work) {
        return FreshContext.run(vertx, () -> transactions.run(first, work)).toCompletableFuture();
    }
}
