package io.ironflow.conductor.persistence;

import io.quarkus.vertx.core.runtime.context.VertxContextSafetyToggle;
import io.smallrye.common.vertx.VertxContext;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;

/**
 * Hibernate Reactive binds a transaction's session to the Vert.x context it runs on. Work that starts outside
 * one of its own (a timer's call-back, an intent handed to its node's lane) runs on a fresh duplicated context.
 */
public final class FreshContext {

    private FreshContext() {
    }

    /** Runs {@code work} on a fresh, safe duplicated context; the stage completes with its outcome. */
    public static <T> CompletionStage<T> run(Vertx vertx, Supplier<Uni<T>> work) {
        CompletableFuture<T> done = new CompletableFuture<>();
        Context context = VertxContext.createNewDuplicatedContext(vertx.getOrCreateContext());
        VertxContextSafetyToggle.setContextSafe(context, true);
        context.runOnContext(v -> work.get().subscribe().with(done::complete, done::completeExceptionally));
        return done;
    }
}
