package io.ironflow.conductor.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
import java.util.HashSet;
import java.util.Set;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@link PipelinedTransactions} on a real PostgreSQL: what the work decides is committed whole or not at all,
 * whichever step fails (the first statement, the work, the last statement, which PostgreSQL's COMMIT behind it
 * turns into a rollback), a failed transaction leaves its connection clean for the next, and many at once on one
 * row (one key) serialize on its lock, none lost. Many at once on other keys share transactions, and one of them
 * that fails, or rolls back, answers alone: the others commit (after running again alone, unless the unit's first
 * statement only reads: then it is left out and nobody runs again). A shared transaction whose session PostgreSQL
 * ends keeps nothing, and each of its units runs again alone, once.
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
            all.add(start(1, lock, rows -> {
                int seen = rows.iterator().next().getInteger(0);
                return Uni.createFrom().item(Ending.commit(new SqlStatement("UPDATE " + TABLE + " SET n = ?1 WHERE id = 1",
                        List.of(seen + 1)), seen));
            }));
        }
        CompletableFuture.allOf(all.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
        assertEquals("200", Sql.query("SELECT n FROM " + TABLE + " WHERE id = 1"), "each saw the one before it");
    }

    @Test
    void unitsOnOtherRowsShareTransactionsAndAllCommit() throws Exception {
        List<CompletableFuture<Long>> all = new ArrayList<>();
        for (int i = 0; i < 64; i++) {
            int id = i;
            all.add(start(id, transaction(), rows -> Uni.createFrom().item(Ending.commit(insert(id), rows.iterator().next().getLong(0)))));
        }
        Set<Long> transactions = new HashSet<>();
        for (CompletableFuture<Long> one : all) {
            transactions.add(one.get(30, TimeUnit.SECONDS));
        }
        assertEquals("64", Sql.query("SELECT count(*) FROM " + TABLE));
        assertTrue(transactions.size() < 32, "64 units at once, at most 2 transactions open: they shared "
                + transactions.size() + " transactions");
    }

    @Test
    void aUnitThatFailsInASharedTransactionFailsAloneAndTheOthersCommit() throws Exception {
        Sql.execute("INSERT INTO " + TABLE + " VALUES (1007, 0)");
        List<CompletableFuture<Long>> all = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            int id = i;
            all.add(start(id, insertReturningTransaction(id), rows -> {
                long transaction = rows.iterator().next().getLong(0);
                return switch (id) {
                    case 7 -> Uni.createFrom().item(Ending.commit(insert(1007), transaction)); // a duplicate key
                    case 8 -> Uni.createFrom().failure(new IllegalStateException("unit 8's work failed"));
                    case 9 -> Uni.createFrom().item(Ending.rollback(-9L));
                    default -> Uni.createFrom().item(Ending.commit(insert(1000 + id), transaction));
                };
            }));
        }
        Set<Long> transactions = new HashSet<>();
        for (int i = 0; i < all.size(); i++) {
            CompletableFuture<Long> one = all.get(i);
            if (i == 7 || i == 8) {
                Throwable failure = assertThrows(ExecutionException.class, () -> one.get(30, TimeUnit.SECONDS)).getCause();
                if (i == 7) {
                    assertEquals("23505", ((PgException) failure).getSqlState());
                } else {
                    assertEquals("unit 8's work failed", failure.getMessage());
                }
            } else if (i == 9) {
                assertEquals(-9L, one.get(30, TimeUnit.SECONDS));
            } else {
                transactions.add(one.get(30, TimeUnit.SECONDS));
            }
        }
        assertEquals("0", Sql.query("SELECT count(*) FROM " + TABLE + " WHERE id IN (7, 8, 9)"),
                "the failed and rolled-back units' first statements are not kept");
        assertEquals("37", Sql.query("SELECT count(*) FROM " + TABLE + " WHERE id < 40"), "every other unit's first");
        assertEquals("38", Sql.query("SELECT count(*) FROM " + TABLE + " WHERE id >= 1000"), "and its last (and 1007)");
        assertTrue(transactions.size() < 37, "the 37 shared transactions (" + transactions.size() + ")");
    }

    @Test
    void aReadingUnitThatFailsOrRollsBackIsLeftOutAndTheOthersCommitWithoutRunningAgain() throws Exception {
        List<CompletableFuture<Long>> all = new ArrayList<>();
        List<AtomicInteger> runs = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            int id = i;
            AtomicInteger ran = new AtomicInteger();
            runs.add(ran);
            all.add(startReading(id, transaction(), rows -> {
                ran.incrementAndGet();
                long transaction = rows.iterator().next().getLong(0);
                return switch (id % 10) {
                    case 8 -> Uni.createFrom().failure(new IllegalStateException("unit " + id + "'s work failed"));
                    case 9 -> Uni.createFrom().item(Ending.rollback(-id - 1L));
                    default -> Uni.createFrom().item(Ending.commit(insert(id), transaction));
                };
            }));
        }
        Set<Long> transactions = new HashSet<>();
        for (int i = 0; i < all.size(); i++) {
            CompletableFuture<Long> one = all.get(i);
            if (i % 10 == 8) {
                Throwable failure = assertThrows(ExecutionException.class, () -> one.get(30, TimeUnit.SECONDS)).getCause();
                assertEquals("unit " + i + "'s work failed", failure.getMessage());
            } else if (i % 10 == 9) {
                assertEquals(-i - 1L, one.get(30, TimeUnit.SECONDS));
            } else {
                transactions.add(one.get(30, TimeUnit.SECONDS));
            }
        }
        assertEquals("32", Sql.query("SELECT count(*) FROM " + TABLE), "every unit that committed, none of the others");
        assertTrue(transactions.size() < 32, "shared: " + transactions.size() + " transactions");
        for (int i = 0; i < runs.size(); i++) {
            assertEquals(1, runs.get(i).get(), "unit " + i + "'s work ran once: nobody ran again alone");
        }
    }

    @Test
    void aSharedTransactionWhoseSessionIsKilledRunsEachUnitAgainAlone() throws Exception {
        // As when PostgreSQL ends the session (a crash, an operator's pg_terminate_backend) with 16 units in it.
        int victim = 20; // deep in the queue of 40: in a full shared transaction
        AtomicInteger kills = new AtomicInteger();
        java.util.Map<Integer, Integer> firstPid = new java.util.concurrent.ConcurrentHashMap<>();
        List<CompletableFuture<Integer>> all = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            int id = i;
            all.add(start(id, insertReturningBackend(id), rows -> {
                int pid = rows.iterator().next().getInteger(0);
                firstPid.putIfAbsent(id, pid);
                if (id != victim || kills.getAndIncrement() > 0) {
                    return Uni.createFrom().item(Ending.commit(insert(1000 + id), pid));
                }
                return Uni.createFrom().item(() -> terminate(pid))
                        .runSubscriptionOn(io.smallrye.mutiny.infrastructure.Infrastructure.getDefaultWorkerPool())
                        .map(killed -> Ending.commit(insert(1000 + id), pid));
            }));
        }
        for (CompletableFuture<Integer> one : all) {
            one.get(30, TimeUnit.SECONDS);
        }
        long sharedWithVictim = firstPid.values().stream().filter(pid -> pid.equals(firstPid.get(victim))).count();
        assertTrue(sharedWithVictim > 1, "the victim's transaction was shared (" + sharedWithVictim + " units)");
        assertEquals(2, kills.get(), "the victim ran twice: once in the killed transaction, once alone");
        assertEquals("40", Sql.query("SELECT count(*) FROM " + TABLE + " WHERE id < 40"), "every unit's first, once");
        assertEquals("40", Sql.query("SELECT count(*) FROM " + TABLE + " WHERE id >= 1000"), "and its last, once");
    }

    @Test
    void aTransactionThatHangsGivesItsPlaceBackAtTheDeadline() throws Exception {
        // both places taken by transactions that take far longer than the deadline (3 s in tests)
        SqlStatement hang = new SqlStatement("SELECT pg_sleep(30)::text", List.of());
        List<CompletableFuture<String>> hung = List.of(
                start("hung 1", hang, rows -> Uni.createFrom().item(Ending.rollback("woke"))),
                start("hung 2", hang, rows -> Uni.createFrom().item(Ending.rollback("woke"))));
        long started = System.nanoTime();
        assertEquals("next", start(1, insert(1), rows -> Uni.createFrom().item(Ending.commit(insert(2), "next")))
                .get(30, TimeUnit.SECONDS));
        long waitedMs = (System.nanoTime() - started) / 1_000_000;
        assertTrue(waitedMs < 15_000, "the next transaction waited " + waitedMs + " ms, not for the hung ones' 30 s");
        for (CompletableFuture<String> one : hung) {
            assertInstanceOf(io.smallrye.mutiny.TimeoutException.class,
                    assertThrows(ExecutionException.class, () -> one.get(30, TimeUnit.SECONDS)).getCause());
        }
    }

    private static SqlStatement transaction() {
        return new SqlStatement("SELECT txid_current()", List.of());
    }

    private static SqlStatement insertReturningTransaction(int id) {
        return new SqlStatement("INSERT INTO " + TABLE + " VALUES (?1, 0) RETURNING txid_current()", List.of(id));
    }

    /** Ends a session from another, as PostgreSQL does to a crashed or terminated backend's. */
    private static String terminate(int pid) {
        try {
            return Sql.query("SELECT pg_terminate_backend(" + pid + ")");
        } catch (java.sql.SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private static SqlStatement insertReturningBackend(int id) {
        return new SqlStatement("INSERT INTO " + TABLE + " VALUES (?1, 0) RETURNING pg_backend_pid()", List.of(id));
    }

    private static SqlStatement insert(int id) {
        return new SqlStatement("INSERT INTO " + TABLE + " VALUES (?1, 0) RETURNING id", List.of(id));
    }

    private <T> T run(SqlStatement first, Function<io.vertx.mutiny.sqlclient.RowSet<io.vertx.mutiny.sqlclient.Row>, Uni<Ending<T>>> work)
            throws Exception {
        return start(1, first, work).get(30, TimeUnit.SECONDS);
    }

    private Throwable failure(SqlStatement first,
            Function<io.vertx.mutiny.sqlclient.RowSet<io.vertx.mutiny.sqlclient.Row>, Uni<Ending<String>>> work) {
        ExecutionException failed = assertThrows(ExecutionException.class, () -> start(1, first, work).get(30, TimeUnit.SECONDS));
        return failed.getCause();
    }

    private <T> CompletableFuture<T> startReading(Object key, SqlStatement read,
            Function<io.vertx.mutiny.sqlclient.RowSet<io.vertx.mutiny.sqlclient.Row>, Uni<Ending<T>>> work) {
        return FreshContext.run(vertx, () -> transactions.runReading(key, read, work)).toCompletableFuture();
    }

    /** The transaction, as the conductor runs it: on a fresh Vert.x context. */
    private <T> CompletableFuture<T> start(Object key, SqlStatement first,
            Function<io.vertx.mutiny.sqlclient.RowSet<io.vertx.mutiny.sqlclient.Row>, Uni<Ending<T>>> work) {
        return FreshContext.run(vertx, () -> transactions.run(key, first, work)).toCompletableFuture();
    }
}
