package io.ironflow.teardown.actions;

import io.ironflow.events.TeardownStepEvent;
import io.ironflow.teardown.ironflow.IronflowNodes;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Instant;
import org.jboss.logging.Logger;

/**
 * Builds the {@code ironflow.teardown-events} record for a step's change: the node's uuid looked up on Ironflow's
 * API (absent when Ironflow does not know the node, whose name then keys the record). The record is not sent
 * from here: {@link ActionStore} writes it to the outbox with the change it announces, {@link OutboxRelay}
 * publishes it.
 */
@ApplicationScoped
public class TeardownEvents {

    private static final Logger LOG = Logger.getLogger(TeardownEvents.class);
    /** Far below Kafka's 1 MiB, with room for the other fields at their largest (a node name is 253 characters). */
    static final int MAX_MESSAGE = 8192;

    @Inject
    IronflowNodes nodes;

    public TeardownStepEvent event(String actionId, String node, String step, String status, String message, Integer revision) {
        String uuid = null;
        try {
            uuid = nodes.find(node).map(IronflowNodes.NodeView::uuid).orElse(null);
        } catch (RuntimeException e) { // whatever the lookup throws, the event still goes out, keyed by the name
            LOG.debugf("node %s: no uuid for its event (%s)", node, e.getMessage());
        }
        return TeardownStepEvent.newBuilder().setActionId(actionId).setNodeUuid(uuid).setNodeName(node)
                .setStep(step).setStatus(status).setMessage(bounded(message)).setTargetRevision(revision == null ? null : revision.longValue())
                .setOccurredAt(Instant.now()).build();
    }

    /**
     * A step's message as the event carries it: its first {@link #MAX_MESSAGE} characters. A message quotes what
     * failed (an API server's answer, an exception), which has no size of its own; the action's status keeps it
     * whole.
     */
    static String bounded(String message) {
        return message == null || message.length() <= MAX_MESSAGE ? message
                : message.substring(0, MAX_MESSAGE) + "... (" + (message.length() - MAX_MESSAGE) + " more characters)";
    }

    /** The record's Kafka key: the node's uuid, else its name. */
    public static String key(TeardownStepEvent event) {
        return event.getNodeUuid() != null ? event.getNodeUuid() : event.getNodeName();
    }
}
