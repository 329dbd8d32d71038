package io.ironflow.conductor.messaging;

import io.ironflow.conductor.intents.IntentProcessor;
import io.ironflow.conductor.persistence.FreshContext;
import io.ironflow.events.NodeIntent;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.jboss.logging.Logger;

/**
 * Consumes ironflow.node-intents. A node's intents apply one after another in the order they were sent;
 * other nodes' intents are decided meanwhile, up to {@code ironflow.conductor.concurrent-intents} at a time
 * (records are acknowledged as they finish, and the offset committed is the oldest one still running, so a
 * crash redelivers what was not done and processed_intents answers what was). A record that cannot be
 * decoded is dead-lettered with the reason; any other failure (the database unreachable, say) is retried
 * until it passes, so no intent is skipped.
 */
@ApplicationScoped
public class NodeIntentConsumer {

    private static final Logger LOG = Logger.getLogger(NodeIntentConsumer.class);

    private final IntentProcessor processor;
    private final OutboxRelay relay;
    private final Vertx vertx;
    private final NodeLanes lanes;

    NodeIntentConsumer(IntentProcessor processor, OutboxRelay relay, Vertx vertx,
            @ConfigProperty(name = "ironflow.conductor.concurrent-intents") int concurrentIntents) {
        this.processor = processor;
        this.relay = relay;
        this.vertx = vertx;
        this.lanes = new NodeLanes(concurrentIntents);
    }

    @Incoming("node-intents")
    public Uni<Void> consume(Message<NodeIntent> message) {
        NodeIntent intent = message.getPayload();
        if (intent == null) {
            return Uni.createFrom().completionStage(
                    message.nack(new IllegalArgumentException("the record is not a NodeIntent this conductor can decode")));
        }
        return Uni.createFrom().completionStage(lanes.submit(intent.getNodeUuid(),
                () -> FreshContext.run(vertx, () -> apply(message, intent))));
    }

    private Uni<Void> apply(Message<NodeIntent> message, NodeIntent intent) {
        return processor.process(intent)
                .onFailure().invoke(failure -> LOG.warnf("intent %s for node %s failed, retrying: %s",
                        intent.getIntentId(), intent.getNodeUuid(), failure.toString()))
                .onFailure().retry().withBackOff(Duration.ofMillis(100), Duration.ofSeconds(5)).indefinitely()
                .invoke(relay::wakeUp)
                .flatMap(done -> Uni.createFrom().completionStage(message.ack()));
    }
}
