package io.ironflow.conductor.intents;

import io.ironflow.conductor.domain.Operation;
import io.ironflow.conductor.domain.ProvisionEvent;
import io.ironflow.conductor.domain.ProvisionRequest;
import io.ironflow.conductor.domain.ProvisionState;
import io.ironflow.conductor.domain.Rejection;
import io.ironflow.conductor.domain.hardware.ManualClean;
import io.ironflow.conductor.node.Node;
import io.ironflow.conductor.persistence.NodeEntity;
import io.ironflow.conductor.work.NodeChange;
import io.ironflow.conductor.work.NodeWork;
import io.ironflow.events.NodeIntent;
import io.ironflow.events.ProvisionAction;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Map;

/**
 * {@link ProvisionAction}: a verb the node's state does not allow is refused as {@link ProvisionRequest#decide}
 * rules (409 while someone holds the node), malformed clean steps are 400; an allowed one fires the state machine
 * and, when it enters a working state, starts the work (which may park the node until the hardware calls back);
 * an abort of a step that cannot be interrupted takes effect after the step; a deploy or rebuild keeps its config
 * drive in instance_info, as Ironic does without an object store; 202.
 */
@ApplicationScoped
class ProvisionActionHandler implements CommandHandler<ProvisionAction> {

    private final NodeEdits edits;
    private final NodeWork work;

    private static final ObjectMapper JSON = new ObjectMapper();

    ProvisionActionHandler(NodeEdits edits, NodeWork work) {
        this.edits = edits;
        this.work = work;
    }

    @Override
    public Class<ProvisionAction> command() {
        return ProvisionAction.class;
    }

    @Override
    public boolean writesOnlyItsNode() {
        return true;
    }

    @Override
    public Uni<Outcome> apply(NodeIntent intent, ProvisionAction action, NodeEntity lockedNode) {
        return edits.locked(intent, lockedNode).flatMap(change -> provision(change, action));
    }

    private Uni<Outcome> provision(NodeChange change, ProvisionAction action) {
        NodeEntity node = change.node();
        ProvisionState state = change.state();
        String cleanSteps = action.getCleanSteps();
        ProvisionRequest.NodeFacts idle = new ProvisionRequest.NodeFacts(node.uuid.toString(), state, null,
                node.maintenance, node.retired);
        ProvisionRequest.Start start;
        try {
            start = ProvisionRequest.decide(idle, action.getTarget(), cleanSteps != null, action.getRescuePassword());
        } catch (Rejection refused) {
            if (change.aggregate().holder() != null && refused.code() == 400) {
                throw new NodeBusy(node.uuid.toString(), change.aggregate().holder()).asRejection(); // Ironic: 409 for a node being worked on
            }
            throw refused;
        }
        if (cleanSteps != null) {
            ManualClean.parse(cleanSteps); // the schema is checked now (400); the driver's catalogue when cleaning runs
        }
        Object configDrive = action.getConfigDrive() == null
                || start.event() != ProvisionEvent.DEPLOY && start.event() != ProvisionEvent.REBUILD
                ? null : configDrive(action.getConfigDrive());
        Node aggregate = change.aggregate();
        return edits.reserve(change).map(x -> {
            aggregate.clearError();
            if (start.event() == ProvisionEvent.ABORT && state == ProvisionState.CLEAN_WAIT && !abortableNow(node)) {
                // Ironic: a step that cannot be interrupted finishes first; the abort takes effect after it.
                work.abortAfterStep(node);
                aggregate.release();
                change.touched();
                return Outcome.done(202, node);
            }
            if (configDrive != null) {
                aggregate.storeConfigDrive(configDrive);
            }
            ProvisionState entered = aggregate.fire(start.event(), start.target());
            if (start.event() == ProvisionEvent.ABORT) {
                work.aborted(change, state);
            }
            boolean working = Operation.of(entered).map(op -> op.working() == entered).orElse(false);
            if (working) {
                work.prepare(change, cleanSteps);
                return Outcome.parked(node, work.run(change)); // null unless a step parked the node
            }
            aggregate.release();
            return Outcome.done(202, node);
        }).call(change::announce);
    }

    /**
     * The API sends a config drive object as its JSON text and a string as it is: base64 never starts with a brace,
     * and a URL that does is not a JSON object, so it stays the string it was.
     */
    private static Object configDrive(String sent) {
        if (sent.startsWith("{")) {
            try {
                return JSON.readValue(sent, Map.class);
            } catch (java.io.IOException notAnObject) {
                return sent;
            }
        }
        return sent;
    }

    private static boolean abortableNow(NodeEntity node) {
        return node.cleanStep == null || Boolean.TRUE.equals(node.cleanStep.get("abortable"));
    }
}
