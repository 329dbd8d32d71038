package io.ironflow.conductor.testing;

import io.ironflow.conductor.persistence.FreshContext;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Hibernate Reactive work run from a test thread as the conductor runs it: in one transaction, on a fresh Vert.x
 * context (so its own session), and waited for with a deadline, so a hung statement fails the test instead of
 * blocking it.
 */
public final class Transactions {

    private Transactions() {
    }

    /** The item of {@code work}, run in a transaction of its own; fails after 30 s. */
    public static <T> T inTransaction(Vertx vertx, Supplier<Uni<T>> work) throws Exception {
        return FreshContext.run(vertx, () -> Panache.withTransaction(work)).toCompletableFuture().get(30, TimeUnit.SECONDS);
    }
}
