package io.ironflow.conductor.persistence;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.SqlConnection;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.function.Function;

/**
 * Transactions on the plain reactive client that cost two round trips where Hibernate Reactive's cost four: the
 * first statement is sent right behind {@code BEGIN}, and the last right before {@code COMMIT}, without waiting for
 * either's answer (the client pipelines them on the connection, PostgreSQL runs them in order). Hibernate waits for
 * {@code BEGIN}'s answer before it sends anything else, and the client's own {@code Transaction} sends
 * {@code COMMIT} only once every statement before it has been answered.
 * <p>
 * Nothing half done is ever committed or left behind: when the last statement fails, PostgreSQL answers the
 * {@code COMMIT} behind it with a rollback; when anything else fails (a statement, the work in between), the
 * transaction is rolled back before its connection goes back to the pool. Work that is abandoned (its caller's
 * deadline passed) still runs to its end and gives its connection back; PostgreSQL's own timeouts on the
 * conductor's role (V6) end a session that stops answering.
 */
@ApplicationScoped
public class PipelinedTransactions {

    private final Pool pool;

    PipelinedTransactions(Pool pool) {
        this.pool = pool;
    }

    /** What the work between the first and the last statement decided: the last statement (null: roll back) and its result. */
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
     * transaction has ended; fails, with nothing committed, when a statement or the work fails.
     */
    public <T> Uni<T> run(SqlStatement first, Function<RowSet<Row>, Uni<Ending<T>>> work) {
        return pool.withConnection(connection -> {
            var begun = connection.query("BEGIN").execute().subscribeAsCompletionStage();
            var rows = connection.preparedQuery(first.pgSql()).execute(first.tuple()).subscribeAsCompletionStage();
            return Uni.createFrom().completionStage(begun)
                    .flatMap(x -> Uni.createFrom().completionStage(rows))
                    .flatMap(rowSet -> work.apply(rowSet))
                    .flatMap(ending -> end(connection, ending.last()).replaceWith(ending.result()))
                    .onFailure().call(failure -> connection.query("ROLLBACK").execute().onFailure().recoverWithNull());
        });
    }

    private static Uni<Void> end(SqlConnection connection, SqlStatement last) {
        if (last == null) {
            return connection.query("ROLLBACK").execute().replaceWithVoid();
        }
        var written = connection.preparedQuery(last.pgSql()).execute(last.tuple()).subscribeAsCompletionStage();
        var committed = connection.query("COMMIT").execute().subscribeAsCompletionStage();
        // the COMMIT behind a failed statement is PostgreSQL's rollback: the statement's failure is the answer
        return Uni.createFrom().completionStage(written).flatMap(x -> Uni.createFrom().completionStage(committed))
                .replaceWithVoid();
    }
}
