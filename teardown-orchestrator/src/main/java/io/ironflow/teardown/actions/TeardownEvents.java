package io.ironflow.teardown.actions;

import io.ironflow.events.TeardownStepEvent;
import io.ironflow.teardown.ironflow.IronflowNodes;
import io.smallrye.reactive.messaging.MutinyEmitter;
import io.smallrye.reactive.messaging.kafka.api.OutgoingKafkaRecordMetadata;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Instant;
import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.jboss.logging.Logger;

/**
 * Announces each step's change on {@code ironflow.teardown-events}, keyed by the node's uuid (its name when
 * Ironflow does not know it), after the change is stored. An announcement the broker refuses is logged and the
 * action goes on: the stored step is the truth, the topic its feed.
 */
@ApplicationScoped
public class TeardownEvents {

    private static final Logger LOG = Logger.getLogger(TeardownEvents.class);

    @Inject
    @Channel("teardown-events")
    MutinyEmitter<TeardownStepEvent> events;

    @Inject
    IronflowNodes nodes;

    public void announce(String actionId, String node, String step, String status, String message, Integer revision) {
        String uuid = null;
        try {
            uuid = nodes.find(node).map(IronflowNodes.NodeView::uuid).orElse(null);
        } catch (IllegalStateException e) {
            LOG.debugf("node %s: no uuid for its event (%s)", node, e.getMessage());
        }
        TeardownStepEvent event = TeardownStepEvent.newBuilder().setActionId(actionId).setNodeUuid(uuid).setNodeName(node)
                .setStep(step).setStatus(status).setMessage(message).setTargetRevision(revision == null ? null : revision.longValue())
                .setOccurredAt(Instant.now()).build();
        try {
            events.sendMessageAndAwait(Message.of(event)
                    .addMetadata(OutgoingKafkaRecordMetadata.<String>builder().withKey(uuid != null ? uuid : node).build()));
        } catch (RuntimeException e) {
            LOG.warnf("action %s: the %s %s event for %s was not published: %s", actionId, step, status, node, e.getMessage());
        }
    }
}
