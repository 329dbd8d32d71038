package io.ironflow.conductor.intents;

import io.opentelemetry.context.Context;
import io.smallrye.reactive.messaging.TracingMetadata;
import io.ironflow.messaging.NodeLanes;
import io.ironflow.conductor.messaging.OutboxRelay;
import io.ironflow.conductor.metrics.ConductorMetrics;
import io.ironflow.events.NodeIntent;
import io.ironflow.intents.UntrustedIntent;
import io.ironflow.schemas.LogText;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.jboss.logging.Logger;

/**
 * Consumes ironflow.node-intents. A node's intents apply one after another in the order they were sent;
 * other nodes' intents are decided meanwhile, up to {@code ironflow.conductor.concurrent-intents} nodes at a time,
 * {@code ironflow.conductor.intents-per-node} held per node
 * (records are acknowledged as they finish, and the offset committed is the oldest one still running, so a
 * crash redelivers what was not done and processed_intents answers what was). Every record ends, and soon:
 * the processor bounds each intent (deadline, bounded retries, a failure answer); a record that is not a
 * NodeIntent (undecodable, or of another type), or whose intent could not even be answered, is dead-lettered with
 * the reason, and the consumer goes on. So is an intent whose signature the conductor does not believe
 * ({@link SignedIntents}): it is never applied nor answered. So no node's lane and no partition's committed offset can be held for ever.
 */
@ApplicationScoped
public class NodeIntentConsumer {

    private static final Logger LOG = Logger.getLogger(NodeIntentConsumer.class);

    private final IntentProcessor processor;
    private final SignedIntents signed;
    private final ConductorMetrics metrics;
    private final OutboxRelay relay;
    private final NodeLanes lanes;

    NodeIntentConsumer(IntentProcessor processor, OutboxRelay relay, SignedIntents signed, ConductorMetrics metrics,
            @ConfigProperty(name = "ironflow.conductor.concurrent-intents") int concurrentIntents,
            @ConfigProperty(name = "ironflow.conductor.intents-per-node") int intentsPerNode) {
        this.processor = processor;
        this.signed = signed;
        this.metrics = metrics;
        this.relay = relay;
        this.lanes = new NodeLanes(concurrentIntents, intentsPerNode);
    }

    @Incoming("node-intents")
    public Uni<Void> consume(Message<NodeIntent> message) {
        Object payload = message.getPayload(); // as Object: a record of another type is not cast to NodeIntent
        if (!(payload instanceof NodeIntent intent)) {
            return Uni.createFrom().completionStage(
                    message.nack(new IllegalArgumentException("the record is not a NodeIntent this conductor can decode")));
        }
        try {
            signed.believe(intent);
        } catch (UntrustedIntent untrusted) {
            metrics.untrustedIntent();
            LOG.warnf("intent %s for node %s refused and dead-lettered, nothing changed: %s", LogText.of(intent.getIntentId()),
                    LogText.of(intent.getNodeUuid()), untrusted.getMessage());
            return Uni.createFrom().completionStage(message.nack(untrusted));
        }
        return Uni.createFrom().completionStage(lanes.submit(intent.getNodeUuid(),
                () -> apply(message, intent).subscribeAsCompletionStage()));
    }

    private Uni<Void> apply(Message<NodeIntent> message, NodeIntent intent) {
        // The record's consumer span (SmallRye's), so the conductor's work continues the producer's trace.
        Context parent = TracingMetadata.fromMessage(message).map(TracingMetadata::getCurrentContext).orElse(Context.root());
        return processor.process(intent, parent)
                .invoke(relay::wakeUp)
                .flatMap(done -> Uni.createFrom().completionStage(message.ack()))
                .onFailure().recoverWithUni(failure -> {
                    LOG.errorf("intent %s for node %s could not be applied nor answered; dead-lettered: %s",
                            intent.getIntentId(), intent.getNodeUuid(), failure.toString());
                    return Uni.createFrom().completionStage(message.nack(failure));
                });
    }
}
