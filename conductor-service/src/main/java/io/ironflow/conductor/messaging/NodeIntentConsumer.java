package io.ironflow.conductor.messaging;

import io.ironflow.conductor.intents.IntentProcessor;
import io.ironflow.events.NodeIntent;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.jboss.logging.Logger;

/**
 * Consumes ironflow.node-intents. Records of one partition are handled one after another, so a node's intents
 * apply in the order they were sent. A record that cannot be decoded is dead-lettered with the reason; any
 * other failure (the database unreachable, say) is retried until it passes, so no intent is skipped.
 */
@ApplicationScoped
public class NodeIntentConsumer {

    private static final Logger LOG = Logger.getLogger(NodeIntentConsumer.class);

    private final IntentProcessor processor;
    private final OutboxRelay relay;

    NodeIntentConsumer(IntentProcessor processor, OutboxRelay relay) {
        this.processor = processor;
        this.relay = relay;
    }

    @Incoming("node-intents")
    public Uni<Void> consume(Message<NodeIntent> message) {
        NodeIntent intent = message.getPayload();
        if (intent == null) {
            return Uni.createFrom().completionStage(
                    message.nack(new IllegalArgumentException("the record is not a NodeIntent this conductor can decode")));
        }
        return processor.process(intent)
                .onFailure().invoke(failure -> LOG.warnf("intent %s for node %s failed, retrying: %s",
                        intent.getIntentId(), intent.getNodeUuid(), failure.toString()))
                .onFailure().retry().withBackOff(Duration.ofMillis(100), Duration.ofSeconds(5)).indefinitely()
                .invoke(relay::wakeUp)
                .flatMap(done -> Uni.createFrom().completionStage(message.ack()));
    }
}
