package io.ironflow.conductor.work;

import io.ironflow.conductor.messaging.OutboxRelay;
import io.ironflow.conductor.persistence.Failures;
import io.ironflow.conductor.persistence.FreshContext;
import io.ironflow.events.AllocationResult;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CompletionStage;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.eclipse.microprofile.reactive.messaging.Incoming;

/**
 * Consumes ironflow.allocation-results (the oneview-allocator's answers, keyed by node uuid) and hands each to
 * {@link AllocationResults} on a fresh context, with a deadline per attempt. A failure that may pass (the database
 * restarting, the node's row locked past lock_timeout) is tried again with backoff for {@code intent-retry-for},
 * as an intent is: OneView's work is done, and dropping its answer would fail the node at its wait timeout. A
 * record that cannot be decoded or applied is dead-lettered with its reason; the node it concerned then fails at
 * its wait timeout, never waits for ever.
 */
@ApplicationScoped
public class AllocationResultConsumer {

    private static final Duration DEADLINE = Duration.ofSeconds(10);

    private final AllocationResults results;
    private final NodeWork work;
    private final OutboxRelay relay;
    private final Vertx vertx;

    private final Duration retryFor;

    AllocationResultConsumer(AllocationResults results, NodeWork work, OutboxRelay relay, Vertx vertx,
            @ConfigProperty(name = "ironflow.conductor.intent-retry-for") Duration retryFor) {
        this.results = results;
        this.work = work;
        this.relay = relay;
        this.vertx = vertx;
        this.retryFor = retryFor;
    }

    @Incoming("allocation-results")
    public CompletionStage<Void> consume(AllocationResult result) {
        if (result == null) {
            throw new IllegalArgumentException("the record is not an AllocationResult this conductor can decode");
        }
        return Uni.createFrom().completionStage(() -> FreshContext.run(vertx, () -> results.apply(result)))
                .ifNoItem().after(DEADLINE).fail()
                .onFailure(Failures::isTransient).retry().withBackOff(Duration.ofMillis(200), Duration.ofSeconds(5))
                .expireIn(retryFor.toMillis())
                .subscribeAsCompletionStage()
                .thenAccept(dueAt -> {
                    relay.wakeUp();
                    work.scheduleCallBack(UUID.fromString(result.getNodeUuid()), dueAt);
                });
    }
}
