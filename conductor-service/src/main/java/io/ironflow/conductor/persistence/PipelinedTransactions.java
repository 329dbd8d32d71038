package io.ironflow.conductor.persistence;

import io.ironflow.conductor.metrics.ConductorMetrics;
import io.smallrye.common.vertx.VertxContext;
import io.smallrye.mutiny.CompositeException;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.SqlConnection;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Transactions on the plain reactive client that cost two round trips where Hibernate Reactive's cost four: the
 * first statement is sent right behind {@code BEGIN}, and the last right before {@code COMMIT}, without waiting for
 * either's answer (the client pipelines them on the connection, PostgreSQL runs them in order). Hibernate waits for
 * {@code BEGIN}'s answer before it sends anything else, and the client's own {@code Transaction} sends
 * {@code COMMIT} only once every statement before it has been answered.
 * <p>
 * Group commit: at most {@code shared-transactions.open} of these transactions are open at once, and the units of
 * work that arrive meanwhile share the next one, up to {@code shared-transactions.size} of them, each on a key of
 * its own (units on one key, one node's, never share: they must see each other's writes, one after the other).
 * A shared transaction sends {@code BEGIN} and every unit's first statement together, runs each unit's work on
 * that unit's own Vert.x context, then sends every last statement and {@code COMMIT} together: PostgreSQL's cost
 * of a transaction (its {@code BEGIN}, its commit record and flush, a statement's round trip) is paid once for
 * all of them. Alone, under light load, a unit runs as it always did.
 * <p>
 * Nothing half done is ever committed or left behind: when the last statement fails, PostgreSQL answers the
 * {@code COMMIT} behind it with a rollback; when anything else fails (a statement, the work in between), the
 * transaction is rolled back before its connection goes back to the pool. A shared transaction commits only if
 * every unit in it would: when any statement or any work fails, or a unit's work decides to roll back, the shared
 * transaction rolls back whole and each of its units runs again alone, so one unit's failure is its own answer and
 * never another's. A unit whose first statement only reads ({@link #runReading}) is instead left out of the commit
 * when its work fails or rolls back, and answered as it would be alone: its reads and locks end with the
 * transaction, and the others need not run again.
 * <p>
 * Every transaction is bounded: work that is abandoned (its caller's deadline passed) still runs to its end and
 * gives its connection back; a transaction, shared or alone, that has not ended within {@code intent-deadline}
 * fails its units (their callers try again) and frees its place; PostgreSQL's own timeouts on the conductor's
 * role (V6) end a session that stops answering.
 */
@ApplicationScoped
public class PipelinedTransactions {

    private final Pool pool;
    private final int size;
    private final int open;
    private final Duration deadline;
    private final ConductorMetrics metrics;
    /** Units waiting for a transaction, in the order they came; guarded by itself. */
    private final Queue<Unit<?>> waiting = new ArrayDeque<>();
    private final AtomicInteger running = new AtomicInteger();

    PipelinedTransactions(Pool pool,
            @ConfigProperty(name = "ironflow.conductor.shared-transactions.size") int size,
            @ConfigProperty(name = "ironflow.conductor.shared-transactions.open") int open,
            @ConfigProperty(name = "ironflow.conductor.intent-deadline") Duration deadline, ConductorMetrics metrics) {
        if (size < 1 || open < 1) {
            throw new IllegalArgumentException(
                    "ironflow.conductor.shared-transactions.size and .open must be at least 1");
        }
        this.pool = pool;
        this.size = size;
        this.open = open;
        this.deadline = deadline;
        this.metrics = metrics;
    }

    /**
     * What the work between the first and the last statement decided: the last statement (null: roll back) and
     * its result.
     */
    public record Ending<T>(SqlStatement last, T result) {

        public static <T> Ending<T> commit(SqlStatement last, T result) {
            return new Ending<>(last, result);
        }

        public static <T> Ending<T> rollback(T result) {
            return new Ending<>(null, result);
        }
    }

    /**
     * {@code BEGIN} and {@code first} together; {@code work} on first's rows (on the caller's Vert.x context);
     * then work's last statement and {@code COMMIT} together, or {@code ROLLBACK}. Yields work's result once the
     * transaction has ended; fails, with nothing committed, when a statement or the work fails. Units of work on
     * other keys may share the transaction (see the class comment); on the same {@code key}, never.
     */
    public <T> Uni<T> run(Object key, SqlStatement first, Function<RowSet<Row>, Uni<Ending<T>>> work) {
        return enqueue(key, first, false, work);
    }

    /**
     * As {@link #run}, for a first statement that only reads (and may lock) and writes nothing: in a shared
     * transaction, a unit whose work fails or decides to roll back is left out of the commit (its locks end with
     * the transaction) and answered as it would be alone, instead of rolling the others back.
     */
    public <T> Uni<T> runReading(Object key, SqlStatement read, Function<RowSet<Row>, Uni<Ending<T>>> work) {
        return enqueue(key, read, true, work);
    }

    private <T> Uni<T> enqueue(Object key, SqlStatement first, boolean firstOnlyReads,
            Function<RowSet<Row>, Uni<Ending<T>>> work) {
        Context context = Vertx.currentContext();
        if (context == null) {
            return alone(first, work);
        }
        return Uni.createFrom().completionStage(() -> {
            Unit<T> unit = new Unit<>(key, first, firstOnlyReads, work, context, new CompletableFuture<>());
            synchronized (waiting) {
                waiting.add(unit);
            }
            startTransactions();
            return unit.result();
        });
    }

    /** Opens transactions for the units waiting, while fewer than {@code open} are. */
    private void startTransactions() {
        while (true) {
            int now = running.get();
            if (now >= open) {
                return; // the end of a running one starts the next
            }
            if (!running.compareAndSet(now, now + 1)) {
                continue;
            }
            List<Unit<?>> units = take();
            if (units.isEmpty()) {
                running.decrementAndGet();
                synchronized (waiting) {
                    if (waiting.isEmpty()) {
                        return;
                    }
                }
                continue; // one came after take() and before the decrement: nobody else may start it
            }
            metrics.transaction(units.size());
            Context on = units.size() == 1 ? units.get(0).context()
                    : VertxContext.createNewDuplicatedContext(units.get(0).context());
            // Bounded, alone or shared: a connection that hangs without failing gives its place back at the deadline
            // (its transaction goes on to its end, or to PostgreSQL's timeouts), its units answered with the timeout.
            on.runOnContext(v -> (units.size() == 1 ? runAlone(units.get(0)) : shared(units))
                    .ifNoItem().after(deadline).recoverWithItem(() -> {
                        if (units.size() > 1) {
                            metrics.sharedRollback();
                        }
                        units.forEach(unit -> unit.fail(new io.smallrye.mutiny.TimeoutException()));
                        return null;
                    })
                    .subscribe().with(x -> ended(), failure -> ended()));
        }
    }

    private void ended() {
        running.decrementAndGet();
        startTransactions();
    }

    /**
     * The next units in order, up to {@code size}, each on another key: one whose key is taken waits for the next
     * transaction.
     */
    private List<Unit<?>> take() {
        List<Unit<?>> units = new ArrayList<>();
        Set<Object> keys = new HashSet<>();
        synchronized (waiting) {
            while (units.size() < size && !waiting.isEmpty() && keys.add(waiting.peek().key())) {
                units.add(waiting.poll());
            }
        }
        return units;
    }

    /**
     * One transaction for {@code units} on this (a fresh) context's connection: every unit's work runs on its own
     * context. Each unit is answered: once the transaction has ended, with its result, or its work's failure when
     * it was left out ({@link #runReading}); by running again alone when the transaction could not commit; or,
     * past the deadline, with the timeout.
     */
    private Uni<Void> shared(List<Unit<?>> units) {
        Executor here = executor(Vertx.currentContext());
        return pool.withConnection(connection -> {
                    var begun = connection.query("BEGIN").execute().subscribeAsCompletionStage();
                    List<Uni<Decided>> decisions = new ArrayList<>(units.size());
                    for (Unit<?> unit : units) {
                        var rows = connection.preparedQuery(unit.first().pgSql()).execute(unit.first().tuple())
                                .subscribeAsCompletionStage();
                        decisions.add(Uni.createFrom().completionStage(begun)
                                .flatMap(x -> Uni.createFrom().completionStage(rows))
                                .onItemOrFailure().transformToUni((read, failed) -> failed != null
                                        ? Uni.createFrom().item(Decided.aborted(failed)) : unit.decide(read, here)));
                    }
                    // every work ends before anything else happens: a unit run again alone never overlaps its first run
                    return Uni.join().all(decisions).andFailFast().flatMap(decided -> {
                        List<Ending<?>> committing = new ArrayList<>();
                        for (int i = 0; i < units.size(); i++) {
                            Decided d = decided.get(i);
                            if (d.commits()) {
                                committing.add(d.ending());
                            } else if (d.aborted() || !units.get(i).firstOnlyReads()) {
                                return rollback(connection).replaceWith((List<Decided>) null);
                            }
                        }
                        return (committing.isEmpty() ? rollback(connection) : commit(connection, committing))
                                .replaceWith(decided);
                    }).onFailure().call(failure -> rollback(connection).onFailure().recoverWithNull());
                })
                .onItemOrFailure().invoke((decided, failure) -> {
                    if (decided == null) {
                        metrics.sharedRollback();
                    }
                    for (int i = 0; i < units.size(); i++) {
                        Unit<?> unit = units.get(i);
                        if (decided != null) {
                            unit.answer(decided.get(i));
                        } else { // rolled back, or failed: each unit decides alone
                            unit.context().runOnContext(v -> runAlone(unit).subscribe().with(x -> { }, f -> { }));
                        }
                    }
                })
                .replaceWithVoid().onFailure().recoverWithNull();
    }

    /**
     * What became of one unit in a shared transaction: its work's ending or failure; aborted when a statement
     * before its work failed (the transaction can commit nothing then).
     */
    private record Decided(Ending<?> ending, Throwable failure, boolean aborted) {

        static Decided aborted(Throwable failure) {
            return new Decided(null, failure, true);
        }

        static Decided of(Ending<?> ending, Throwable failure) {
            return new Decided(ending, failure == null && ending == null
                    ? new IllegalStateException("the work ended with no ending") : failure, false);
        }

        boolean commits() {
            return failure == null && ending != null && ending.last() != null;
        }
    }

    private static Uni<Void> rollback(SqlConnection connection) {
        return connection.query("ROLLBACK").execute().replaceWithVoid();
    }

    /** Every unit's last statement, then COMMIT, together; fails if any statement failed (then nothing is
     * committed). */
    private static Uni<Void> commit(SqlConnection connection, List<Ending<?>> decided) {
        List<Uni<RowSet<Row>>> written = new ArrayList<>(decided.size());
        for (Ending<?> ending : decided) {
            SqlStatement last = ending.last();
            var stage = connection.preparedQuery(last.pgSql()).execute(last.tuple()).subscribeAsCompletionStage();
            written.add(Uni.createFrom().completionStage(stage));
        }
        var committed = connection.query("COMMIT").execute().subscribeAsCompletionStage();
        // The COMMIT behind a failed statement is PostgreSQL's rollback: the first failed statement's failure is
        // the answer (those after it only say the transaction was aborted).
        return Uni.join().all(written).andCollectFailures()
                .onFailure(CompositeException.class).transform(e -> ((CompositeException) e).getCauses().get(0))
                .flatMap(x -> Uni.createFrom().completionStage(committed)).replaceWithVoid();
    }

    /** The transaction of one unit of work, on the caller's context and connection. */
    private <T> Uni<T> alone(SqlStatement first, Function<RowSet<Row>, Uni<Ending<T>>> work) {
        return pool.withConnection(connection -> {
            var begun = connection.query("BEGIN").execute().subscribeAsCompletionStage();
            var rows = connection.preparedQuery(first.pgSql()).execute(first.tuple()).subscribeAsCompletionStage();
            return Uni.createFrom().completionStage(begun)
                    .flatMap(x -> Uni.createFrom().completionStage(rows))
                    .flatMap(rowSet -> work.apply(rowSet))
                    .flatMap(ending -> (ending.last() == null ? rollback(connection)
                            : commit(connection, List.<Ending<?>>of(ending))).replaceWith(ending.result()))
                    .onFailure().call(failure -> connection.query("ROLLBACK").execute().onFailure().recoverWithNull());
        });
    }

    /** {@code unit}'s own transaction, on its own context; yields once the unit has its answer. */
    private <T> Uni<Void> runAlone(Unit<T> unit) {
        return alone(unit.first(), unit.work()).onItemOrFailure().invoke(unit::settle)
                .replaceWithVoid().onFailure().recoverWithNull();
    }

    private static Executor executor(Context context) {
        return task -> context.runOnContext(v -> task.run());
    }

    /** A unit of work waiting for, or in, a transaction: answered on the context it came from. */
    private record Unit<T>(Object key, SqlStatement first, boolean firstOnlyReads,
            Function<RowSet<Row>, Uni<Ending<T>>> work, Context context, CompletableFuture<T> result) {

        /** Runs its work on {@code rows} on its own context, then comes back to the shared transaction's. */
        Uni<Decided> decide(RowSet<Row> rows, Executor shared) {
            return Uni.createFrom().item(rows).emitOn(executor(context)).flatMap(read -> work.apply(read))
                    .onItemOrFailure().transform(Decided::of).emitOn(shared);
        }

        /** Its answer from the shared transaction that ended: its work's failure, or its result. */
        @SuppressWarnings("unchecked")
        void answer(Decided decided) {
            context.runOnContext(v -> {
                if (decided.failure() != null) {
                    result.completeExceptionally(decided.failure());
                } else {
                    result.complete((T) decided.ending().result());
                }
            });
        }

        void fail(Throwable failure) {
            context.runOnContext(v -> result.completeExceptionally(failure));
        }

        /** Its answer from its own transaction (run on its own context). */
        void settle(T value, Throwable failure) {
            if (failure != null) {
                result.completeExceptionally(failure);
            } else {
                result.complete(value);
            }
        }
    }
}
