package io.ironflow.conductor.intents;

import io.ironflow.conductor.domain.NodeNames;
import io.ironflow.conductor.domain.Rejection;
import io.ironflow.events.CreateNode;
import io.ironflow.events.NodeIntent;
import io.ironflow.policy.IntentRules;
import io.ironflow.policy.NodeOwnership;
import io.ironflow.policy.Policy;
import io.ironflow.policy.Principal;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.nio.file.Path;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The conductor's check of every intent against io.ironflow.policy, the same table the API decides with, so that
 * writing to Kafka is no way around it: the intent's principal must pass the rules its command needs
 * ({@link IntentRules}) on the node as stored, or the intent is refused, 404 if the principal may not even see
 * the node, else 403, and nothing changes. An intent without a principal (a producer older than authentication)
 * is refused unless {@code ironflow.policy.unattributed-intents=trust}.
 */
@ApplicationScoped
public class IntentAuthorization {

    private final Policy policy;
    private final boolean trustUnattributed;

    IntentAuthorization(@ConfigProperty(name = "ironflow.policy.file") Optional<Path> file,
            @ConfigProperty(name = "ironflow.policy.unattributed-intents", defaultValue = "refuse") String unattributed) {
        this.policy = file.map(Policy::load).orElseGet(Policy::defaults);
        if (!unattributed.equals("refuse") && !unattributed.equals("trust")) {
            throw new IllegalArgumentException("ironflow.policy.unattributed-intents must be refuse or trust, not " + unattributed);
        }
        this.trustUnattributed = unattributed.equals("trust");
    }

    /** Completes when the intent may be applied; fails with a {@link Rejection} (403 or 404) when it may not. */
    public Uni<Void> check(NodeIntent intent) {
        Principal who = IntentRules.fromAvro(intent.getPrincipal());
        if (who == null) {
            return trustUnattributed ? Uni.createFrom().voidItem() : Uni.createFrom().failure(new Rejection(403,
                    "Access was denied: intent " + intent.getIntentId() + " names no principal (requester "
                            + intent.getRequester() + " is not authenticated)."));
        }
        Set<String> rules = IntentRules.required(intent.getCommand());
        if (intent.getCommand() instanceof CreateNode) {
            return policy.allows("baremetal:node:create", who, NodeOwnership.NONE) ? Uni.createFrom().voidItem()
                    : Uni.createFrom().failure(forbidden(rules));
        }
        if (!NodeNames.isUuid(intent.getNodeUuid())) {
            return Uni.createFrom().voidItem(); // no such node: the command answers 404 itself
        }
        // The owner and lessee are read with the row lock the command takes next, and not as an entity: a node
        // loaded here unlocked would stay in the session, and the command's locked load would then work on that
        // stale copy and write it back over a change committed in between (an allocation result, a call-back).
        return Panache.getSession().flatMap(session -> session.createNativeQuery(
                        "SELECT CAST(owner AS text), CAST(lessee AS text) FROM nodes WHERE uuid = ?1 FOR UPDATE", Object[].class)
                .setParameter(1, UUID.fromString(intent.getNodeUuid())).getResultList()).map(rows -> {
            if (rows.isEmpty()) {
                return null;
            }
            Object[] row = rows.get(0);
            switch (policy.decide(rules, who, new NodeOwnership((String) row[0], (String) row[1]))) {
                case NOT_FOUND -> throw Rejection.notFound("Node " + intent.getNodeUuid() + " could not be found.");
                case FORBIDDEN -> throw forbidden(rules);
                default -> {
                    return null;
                }
            }
        }).replaceWithVoid();
    }

    private static Rejection forbidden(Set<String> rules) {
        return new Rejection(403, "Access was denied to the following resource: " + String.join(", ", rules));
    }
}
