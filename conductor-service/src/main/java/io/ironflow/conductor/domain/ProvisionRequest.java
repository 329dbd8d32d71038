package io.ironflow.conductor.domain;

import static io.ironflow.conductor.domain.ProvisionState.ACTIVE;
import static io.ironflow.conductor.domain.ProvisionState.AVAILABLE;
import static io.ironflow.conductor.domain.ProvisionState.MANAGEABLE;
import static io.ironflow.conductor.domain.ProvisionState.RESCUE;

import java.util.Arrays;
import java.util.Optional;

/**
 * Whether a provision verb may start on a node, decided as Ironic's API and conductor decide it
 * (ironic/api/controllers/v1/node.py provision, conductor/manager.py do_provisioning_action), and if so which
 * state it enters and which stable state it aims for ({@code target_provision_state}).
 */
public final class ProvisionRequest {

    /** What a node looks like to the decision. */
    public record NodeFacts(String uuid, ProvisionState state, String reservation, boolean maintenance, boolean retired) {
    }

    /** An accepted verb: the state it moves the node into now, and the stable state it aims for (or null). */
    public record Start(ProvisionEvent event, ProvisionState enter, ProvisionState target) {
    }

    private ProvisionRequest() {
    }

    /**
     * Decides {@code verbWire} for {@code node}. Throws a {@link Rejection} (which changes nothing) with
     * Ironic's code and message when the verb is unknown, malformed or not allowed now.
     */
    public static Start decide(NodeFacts node, String verbWire, boolean hasCleanSteps, String rescuePassword) {
        ProvisionVerb verb = ProvisionVerb.fromWire(verbWire).orElseThrow(() -> Rejection.badRequest(
                "Invalid input for field/attribute target. Value: '" + verbWire + "'. The target must be one of "
                        + String.join(", ", Arrays.stream(ProvisionVerb.values()).map(ProvisionVerb::wire).toList())
                        + "."));
        if ((verb == ProvisionVerb.ACTIVE || verb == ProvisionVerb.DEPLOY || verb == ProvisionVerb.REBUILD) && node.maintenance()) {
            throw Rejection.badRequest("Cannot provision on node " + node.uuid() + " while it is in maintenance mode.");
        }
        Optional<ProvisionState> next = ProvisionStateMachine.next(node.state(), verb.event());
        if (next.isEmpty()) {
            // A node being worked on answers 409, so clients retry instead of giving up (Ironic does the same).
            if (node.reservation() != null) {
                throw locked(node);
            }
            throw Rejection.badRequest("The requested action \"" + verb.wire() + "\" can not be performed on node \""
                    + node.uuid() + "\" while it is in state \"" + node.state().wire() + "\".");
        }
        if (hasCleanSteps && verb != ProvisionVerb.CLEAN) {
            throw Rejection.badRequest("\"clean_steps\" is only valid when setting target provision state to clean");
        }
        if (verb == ProvisionVerb.CLEAN && !hasCleanSteps) {
            throw Rejection.badRequest("\"clean_steps\" is required when setting target provision state to clean");
        }
        if (rescuePassword != null && verb != ProvisionVerb.RESCUE) {
            throw Rejection.badRequest("\"rescue_password\" is only valid when setting target provision state to rescue");
        }
        if (verb == ProvisionVerb.RESCUE && (rescuePassword == null || rescuePassword.isBlank())) {
            throw Rejection.badRequest("A non-empty \"rescue_password\" is required when setting target provision state to rescue");
        }
        if (verb == ProvisionVerb.PROVIDE && node.retired()) {
            // Seed 000 answers 409 here; Ironic answers 400 (NodeIsRetired). See docs/api-compat.md.
            throw Rejection.conflict("The node " + node.uuid() + " is retired and cannot be provided; unset retired first.");
        }
        if (node.reservation() != null) {
            throw locked(node);
        }
        if (verb == ProvisionVerb.CLEAN && node.maintenance()) { // do_node_clean, once it holds the node's lock
            throw Rejection.badRequest("The cleaning operation can't be performed on node " + node.uuid()
                    + " because it's in maintenance mode.");
        }
        return new Start(verb.event(), next.get(), target(verb, next.get()));
    }

    private static Rejection locked(NodeFacts node) {
        return Rejection.conflict("Node " + node.uuid() + " is locked by host " + node.reservation()
                + ", please retry after the current operation is completed.");
    }

    /** The stable state a verb aims for; none when the first step already is stable or a failure. */
    private static ProvisionState target(ProvisionVerb verb, ProvisionState enter) {
        if (enter.stable() || verb == ProvisionVerb.ABORT) {
            return null;
        }
        return switch (verb) {
            case MANAGE, CLEAN, INSPECT -> MANAGEABLE;
            case PROVIDE, DELETED, UNDEPLOY -> AVAILABLE;
            case ACTIVE, DEPLOY, REBUILD, UNRESCUE, ADOPT -> ACTIVE;
            case RESCUE -> RESCUE;
            case ABORT -> null;
        };
    }
}
