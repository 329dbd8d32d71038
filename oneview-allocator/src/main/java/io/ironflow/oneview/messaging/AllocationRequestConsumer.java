package io.ironflow.oneview.messaging;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.ironflow.events.AllocationAction;
import io.ironflow.events.AllocationPurpose;
import io.ironflow.events.AllocationRequest;
import io.ironflow.events.AllocationResult;
import io.ironflow.oneview.allocation.Allocation;
import io.ironflow.oneview.allocation.Allocator;
import io.ironflow.messaging.NodeLanes;
import io.smallrye.common.annotation.Identifier;
import io.smallrye.reactive.messaging.MutinyEmitter;
import io.smallrye.reactive.messaging.kafka.api.IncomingKafkaRecordMetadata;
import io.smallrye.reactive.messaging.kafka.api.OutgoingKafkaRecordMetadata;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.common.TopicPartition;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.jboss.logging.Logger;

/**
 * Consumes ironflow.allocation-requests (the conductor's, keyed by node uuid) and answers every one on
 * ironflow.allocation-results with the same key and requestId: first the intent that records or forgets the
 * node's applied_server_profile_uri, then the result, so the conductor sees the field before it goes on.
 * A node's requests run one after another in the order they were sent ({@link NodeLanes}: two power changes
 * reach OneView in the conductor's order, so the later one wins), different nodes' side by side on
 * {@code ironflow.oneview.concurrent-allocations} threads (OneView calls block); a record is acknowledged when
 * it is answered, and the offset committed is the oldest one still running. A request whose deadline has passed
 * is answered failed without touching OneView. {@code POWER} requests set the node's power through OneView (the
 * conductor's power interface for oneview nodes). An undecodable record, or one that could not be answered, is
 * dead-lettered with the reason; an answer counts as not sent only once the producer itself gave up on it
 * ({@code delivery.timeout.ms}), so a dead-lettered request was never answered after all.
 */
@ApplicationScoped
public class AllocationRequestConsumer {

    private static final Logger LOG = Logger.getLogger(AllocationRequestConsumer.class);

    private final Allocator allocator;
    private final NodeIntents intents;
    private final MutinyEmitter<AllocationResult> results;

    private final MeterRegistry metrics;
    private final RequestAssignments assignments;
    private final Duration sendTimeout;
    private final NodeLanes lanes;
    private final ExecutorService workers;

    /**
     * Requests this instance answered lately, by node and request id. The conductor's outbox publishes at least
     * once (a relay that dies between the broker's acknowledgement and deleting its rows sends them again): a
     * request seen again is answered again from here, not run on OneView a second time (a reboot twice).
     */
    private final Cache<String, AllocationResult> answered = Caffeine.newBuilder()
            .maximumSize(10_000).expireAfterWrite(Duration.ofHours(1)).build();

    AllocationRequestConsumer(Allocator allocator, NodeIntents intents,
            @Identifier("allocation-requests-rebalance") RequestAssignments assignments,
            @Channel("allocation-results") MutinyEmitter<AllocationResult> results, MeterRegistry metrics,
            @ConfigProperty(name = "ironflow.oneview.concurrent-allocations") int concurrentAllocations,
            @ConfigProperty(name = "ironflow.oneview.requests-per-node") int requestsPerNode,
            @ConfigProperty(name = "mp.messaging.outgoing.allocation-results.delivery.timeout.ms") long deliveryTimeoutMs) {
        this.metrics = metrics;
        this.assignments = assignments;
        this.sendTimeout = NodeIntents.sendTimeout(deliveryTimeoutMs);
        this.allocator = allocator;
        this.intents = intents;
        this.results = results;
        this.lanes = new NodeLanes(concurrentAllocations, requestsPerNode);
        AtomicInteger threads = new AtomicInteger();
        this.workers = Executors.newFixedThreadPool(concurrentAllocations, work -> {
            Thread thread = new Thread(work, "allocation-" + threads.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        });
    }

    /**
     * Takes no more work. Requests under way are not interrupted (an interrupted OneView call would be answered as
     * a failure); those the process does not finish stay unacknowledged and go to the next allocator.
     */
    @PreDestroy
    void stop() {
        workers.shutdown();
    }

    @Incoming("allocation-requests")
    public CompletionStage<Void> consume(Message<AllocationRequest> message) {
        Object payload = message.getPayload(); // as Object: a record of another type is not cast to AllocationRequest
        if (!(payload instanceof AllocationRequest request)) {
            return message.nack(new IllegalArgumentException("the record is not an AllocationRequest this allocator can decode"
                    + (payload == null ? "" : ": it is a " + payload.getClass().getName())));
        }
        TopicPartition partition = message.getMetadata(IncomingKafkaRecordMetadata.class)
                .map(kafka -> new TopicPartition(kafka.getTopic(), kafka.getPartition())).orElse(null);
        long generation = partition == null ? RequestAssignments.NONE : assignments.generation(partition);
        return lanes.submit(request.getNodeUuid(), () -> {
            if (partition != null && !assignments.stillHeld(partition, generation)) {
                // Revoked while it waited in its lane: the partition's new holder runs it (it was never committed).
                LOG.infof("allocation request %s for node %s: %s was revoked while it waited; left to its new holder",
                        request.getRequestId(), request.getNodeUuid(), partition);
                return CompletableFuture.completedFuture(null);
            }
            return CompletableFuture.runAsync(() -> answer(request), workers)
                    .handle((answered, failure) -> failure == null ? message.ack() : deadLetter(message, request, failure))
                    .thenCompose(settled -> settled);
        });
    }

    private CompletionStage<Void> deadLetter(Message<AllocationRequest> message, AllocationRequest request, Throwable failure) {
        Throwable cause = failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
        LOG.errorf(cause, "allocation request %s for node %s could not be answered; dead-lettered", request.getRequestId(),
                request.getNodeUuid());
        return message.nack(cause);
    }

    private void answer(AllocationRequest request) {
        String node = request.getNodeUuid();
        String key = node + " " + request.getRequestId();
        AllocationResult earlier = answered.getIfPresent(key);
        if (earlier != null) {
            LOG.infof("allocation request %s for node %s was answered already; answering it again without calling OneView",
                    request.getRequestId(), node);
            send(earlier);
            return;
        }
        Timer.Sample took = Timer.start(metrics);
        Allocation outcome;
        if (request.getDeadline() != null && request.getDeadline().isBefore(Instant.now())) {
            outcome = new Allocation(false, null, "The allocation request " + request.getRequestId() + " for node " + node
                    + " arrived after its deadline " + request.getDeadline() + "; nothing was done.", false,
                    Allocation.AppliedField.KEEP, null);
        } else if (request.getAction() == AllocationAction.APPLY) {
            outcome = allocator.apply(node, request.getRequestId(), request.getPurpose() == AllocationPurpose.DEPLOY ? Allocator.Purpose.DEPLOY
                    : Allocator.Purpose.CLEANING, request.getServerHardwareUri(), request.getServerProfileTemplateUri(),
                    request.getAppliedServerProfileUri(), request.getDeadline());
        } else if (request.getAction() == AllocationAction.POWER) {
            outcome = allocator.power(node, request.getServerHardwareUri(), request.getAppliedServerProfileUri(),
                    request.getPreAllocated(), request.getPowerTarget(), request.getDeadline());
        } else {
            outcome = allocator.remove(node, request.getServerHardwareUri(), request.getAppliedServerProfileUri(),
                    request.getDeadline());
        }
        // ironflow_oneview_allocation_duration_seconds{action,result}: OneView's share of deploy and cleaning.
        took.stop(Timer.builder("ironflow.oneview.allocation.duration").tag("action", request.getAction().name())
                .tag("result", outcome.success() ? "succeeded" : outcome.inUseByOneView() ? "in_use_by_oneview" : "failed")
                .publishPercentileHistogram().register(metrics));
        switch (outcome.field()) {
            case SET -> intents.recordAppliedProfile(node, outcome.serverProfileUri());
            case REMOVE -> intents.forgetAppliedProfile(node);
            default -> { }
        }
        if (!outcome.success()) {
            LOG.warnf("allocation %s %s of node %s failed: %s", request.getAction(), request.getRequestId(), node,
                    outcome.errorMessage());
        }
        AllocationResult result = AllocationResult.newBuilder()
                .setRequestId(request.getRequestId())
                .setNodeUuid(node)
                .setAction(request.getAction())
                .setSuccess(outcome.success())
                .setServerProfileUri(outcome.serverProfileUri())
                .setErrorMessage(outcome.errorMessage())
                .setInUseByOneView(outcome.inUseByOneView())
                .setPowerState(outcome.powerState())
                .setCompletedAt(Instant.now())
                .build();
        send(result);
        answered.put(key, result);
    }

    private void send(AllocationResult result) {
        results.sendMessage(Message.of(result).addMetadata(OutgoingKafkaRecordMetadata.<String>builder()
                .withKey(result.getNodeUuid()).build())).await().atMost(sendTimeout);
    }
}
