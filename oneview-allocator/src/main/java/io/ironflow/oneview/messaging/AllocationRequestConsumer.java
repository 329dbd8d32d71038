package io.ironflow.oneview.messaging;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.ironflow.events.AllocationAction;
import io.ironflow.events.AllocationPurpose;
import io.ironflow.events.AllocationRequest;
import io.ironflow.events.AllocationResult;
import io.ironflow.oneview.allocation.Allocation;
import io.ironflow.oneview.allocation.Allocator;
import io.smallrye.reactive.messaging.annotations.Blocking;
import io.smallrye.reactive.messaging.MutinyEmitter;
import io.smallrye.reactive.messaging.kafka.api.OutgoingKafkaRecordMetadata;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.time.Instant;
import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.jboss.logging.Logger;

/**
 * Consumes ironflow.allocation-requests (the conductor's, keyed by node uuid) and answers every one on
 * ironflow.allocation-results with the same key and requestId: first the intent that records or forgets the
 * node's applied_server_profile_uri, then the result, so the conductor sees the field before it goes on.
 * Requests run side by side on a bounded worker pool (OneView calls block); a request whose deadline has
 * passed is answered failed without touching OneView. {@code POWER} requests set the node's power through
 * OneView (the conductor's power interface for oneview nodes). An undecodable record is dead-lettered.
 */
@ApplicationScoped
public class AllocationRequestConsumer {

    private static final Logger LOG = Logger.getLogger(AllocationRequestConsumer.class);
    private static final Duration SEND_TIMEOUT = Duration.ofSeconds(30);

    private final Allocator allocator;
    private final NodeIntents intents;
    private final MutinyEmitter<AllocationResult> results;

    private final MeterRegistry metrics;

    AllocationRequestConsumer(Allocator allocator, NodeIntents intents,
            @Channel("allocation-results") MutinyEmitter<AllocationResult> results, MeterRegistry metrics) {
        this.metrics = metrics;
        this.allocator = allocator;
        this.intents = intents;
        this.results = results;
    }

    @Incoming("allocation-requests")
    @Blocking(value = "allocations", ordered = false)
    public void consume(AllocationRequest request) {
        if (request == null) {
            throw new IllegalArgumentException("the record is not an AllocationRequest this allocator can decode");
        }
        try {
            answer(request);
        } catch (RuntimeException e) {
            LOG.errorf(e, "allocation request %s for node %s could not be answered; dead-lettered", request.getRequestId(),
                    request.getNodeUuid());
            throw e;
        }
    }

    private void answer(AllocationRequest request) {
        String node = request.getNodeUuid();
        Timer.Sample took = Timer.start(metrics);
        Allocation outcome;
        if (request.getDeadline() != null && request.getDeadline().isBefore(Instant.now())) {
            outcome = new Allocation(false, null, "The allocation request " + request.getRequestId() + " for node " + node
                    + " arrived after its deadline " + request.getDeadline() + "; nothing was done.", false,
                    Allocation.AppliedField.KEEP, null);
        } else if (request.getAction() == AllocationAction.APPLY) {
            outcome = allocator.apply(node, request.getRequestId(), request.getPurpose() == AllocationPurpose.DEPLOY ? Allocator.Purpose.DEPLOY
                    : Allocator.Purpose.CLEANING, request.getServerHardwareUri(), request.getServerProfileTemplateUri(),
                    request.getAppliedServerProfileUri());
        } else if (request.getAction() == AllocationAction.POWER) {
            outcome = allocator.power(node, request.getServerHardwareUri(), request.getAppliedServerProfileUri(),
                    request.getPreAllocated(), request.getPowerTarget(), request.getDeadline());
        } else {
            outcome = allocator.remove(node, request.getServerHardwareUri(), request.getAppliedServerProfileUri());
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
        results.sendMessage(Message.of(result).addMetadata(OutgoingKafkaRecordMetadata.<String>builder().withKey(node).build()))
                .await().atMost(SEND_TIMEOUT);
    }
}
