package io.ironflow.conductor.intents;

import io.ironflow.conductor.domain.NodeNames;
import io.ironflow.conductor.domain.Rejection;
import io.ironflow.conductor.persistence.NodeEntity;
import io.ironflow.events.CreateNode;
import io.ironflow.events.NodeIntent;
import io.ironflow.events.NodeSnapshot;
import io.ironflow.policy.NodeRedaction;
import io.ironflow.policy.IntentRules;
import io.ironflow.policy.NodeOwnership;
import io.ironflow.policy.Policy;
import io.ironflow.policy.Principal;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Set;
import java.util.UUID;

/**
 * The conductor's check of every intent against io.ironflow.policy, the same table the API decides with, so that
 * writing to Kafka is no way around it: the intent's principal must pass the rules its command needs
 * ({@link IntentRules}) on the node as stored, or the intent is refused, 404 if the principal may not even see
 * the node, else 403, and nothing changes. The principal is the one the intent's signature carries
 * ({@link SignedIntents} has replaced whatever else the record named); an intent without one is refused.
 * <p>
 * An intent costs one load of its node: a command's check ({@link #forCommand}) is given the node as the intent's
 * transaction loaded it FOR UPDATE, and hands on that same instance, read under the lock, so no copy loaded before
 * the lock can be written back over a change committed meanwhile; a read's check ({@link #forRead}) loads it
 * without a lock, so a read never waits behind a writer.
 */
@ApplicationScoped
public class IntentAuthorization {

    private final Policy policy;

    IntentAuthorization(ConductorPolicy policy) {
        this.policy = policy.policy();
    }

    /**
     * For a command, in its transaction: {@code lockedNode}, the intent's node as loaded FOR UPDATE (null for
     * CreateNode, or when the intent names no node that exists: the command answers 404 itself), once the
     * principal may apply the command to it; throws a {@link Rejection} (403 or 404) when it may not. The node must
     * be the transaction's first load of it, so that what the command answers is the row as committed when the
     * lock was granted.
     */
    public NodeEntity forCommand(NodeIntent intent, NodeEntity lockedNode) {
        return check(intent, lockedNode);
    }

    /** As {@link #forCommand}, for a read (ValidateNode): the node is loaded here, without a lock. */
    public Uni<NodeEntity> forRead(NodeIntent intent) {
        Uni<NodeEntity> node = NodeNames.isUuid(intent.getNodeUuid())
                ? NodeEntity.findById(UUID.fromString(intent.getNodeUuid())) : Uni.createFrom().nullItem();
        return node.map(found -> check(intent, found));
    }

    private NodeEntity check(NodeIntent intent, NodeEntity node) {
        Principal who = IntentRules.fromAvro(intent.getPrincipal());
        if (who == null) {
            throw new Rejection(403, "Access was denied: intent " + intent.getIntentId() + " names no principal.");
        }
        Set<String> rules = IntentRules.required(intent.getCommand());
        if (intent.getCommand() instanceof CreateNode) {
            if (policy.allows("baremetal:node:create", who, NodeOwnership.NONE)) {
                return null;
            }
            throw forbidden(rules);
        }
        if (node == null) {
            return node; // no such node: the command answers 404 itself
        }
        return switch (policy.decide(rules, who, new NodeOwnership(node.owner, node.lessee))) {
            case NOT_FOUND -> throw Rejection.notFound("Node " + intent.getNodeUuid() + " could not be found.");
            case FORBIDDEN -> throw forbidden(rules);
            default -> node;
        };
    }

    /**
     * What an intent's result may carry of its node: nothing when the intent was refused (a refusal must not let a
     * bogus intent read the node), else the node as the intent's principal may read it. Intent producers may read
     * every result, so a result carries no more than its requester could GET.
     */
    public NodeSnapshot readable(NodeIntent intent, boolean accepted, NodeSnapshot node) {
        Principal who = IntentRules.fromAvro(intent.getPrincipal());
        return !accepted || node == null || who == null ? null : NodeRedaction.forReader(policy, who, node);
    }

    private static Rejection forbidden(Set<String> rules) {
        return new Rejection(403, "Access was denied to the following resource: " + String.join(", ", rules));
    }
}
