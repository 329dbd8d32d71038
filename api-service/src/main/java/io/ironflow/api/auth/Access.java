package io.ironflow.api.auth;

import io.ironflow.api.errors.ApiError;
import io.ironflow.auth.HttpAuthentication;
import io.ironflow.events.NodeSnapshot;
import io.ironflow.policy.NodeOwnership;
import io.ironflow.policy.NodeRedaction;
import io.ironflow.policy.Policy;
import io.ironflow.policy.Principal;
import io.quarkus.vertx.http.runtime.CurrentVertxRequest;
import jakarta.enterprise.context.ApplicationScoped;
import java.nio.file.Path;
import java.util.Collection;
import java.util.Optional;
import java.util.Set;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The API's side of io.ironflow.policy: who the current caller is, and Ironic's answers for what it asks: 404 for
 * a node it may not see, 403 for an action it may not take on a node it sees, lists narrowed to its project's
 * nodes, and the node fields it may not read redacted with Ironic's texts. The conductor checks the same rules
 * again on the intent, so this is the early, cheap refusal, not the only one.
 */
@ApplicationScoped
public class Access {

    private final Policy policy;
    private final CurrentVertxRequest request;

    Access(@ConfigProperty(name = "ironflow.policy.file") Optional<Path> file, CurrentVertxRequest request) {
        this.policy = file.map(Policy::load).orElseGet(Policy::defaults);
        this.request = request;
    }

    /** The authenticated caller of the current request; call it while the request is being dispatched. */
    public Principal caller() {
        Principal who = request.getCurrent() == null ? null : HttpAuthentication.principal(request.getCurrent());
        if (who == null) {
            throw new IllegalStateException("no authenticated caller on this request");
        }
        return who;
    }

    /** Refuses unless {@code who} passes every rule on {@code node}: 404 if it may not see the node, else 403. */
    public void require(Principal who, Collection<String> rules, NodeSnapshot node, String ident) {
        require(who, rules, ownership(node), ident);
    }

    /** As {@link #require(Principal, Collection, NodeSnapshot, String)}, given only who owns and leases the node. */
    public void require(Principal who, Collection<String> rules, NodeOwnership node, String ident) {
        switch (policy.decide(rules, who, node)) {
            case ALLOWED -> {
            }
            case NOT_FOUND -> throw ApiError.notFound("Node " + ident + " could not be found.");
            case FORBIDDEN -> throw forbidden(rules);
        }
    }

    /** Whether {@code who} passes every rule on any node, whoever owns or leases it (Policy#allowsWhoeverOwns). */
    public boolean allowsWhoeverOwns(Principal who, Collection<String> rules) {
        return policy.allowsWhoeverOwns(rules, who);
    }

    /** Refuses a rule that concerns no existing node (create, list) with 403. */
    public void require(Principal who, String rule) {
        if (!policy.allows(rule, who, NodeOwnership.NONE)) {
            throw forbidden(Set.of(rule));
        }
    }

    public boolean allows(Principal who, String rule, NodeSnapshot node) {
        return policy.allows(rule, who, node == null ? NodeOwnership.NONE : ownership(node));
    }

    /**
     * The node as {@code who} may read it: Ironic's redaction texts (ironic/api/controllers/v1/node.py,
     * node_sanitize) in place of driver_info, last_error and reservation when their get rule refuses.
     */
    public NodeSnapshot redact(Principal who, NodeSnapshot node) {
        return NodeRedaction.forReader(policy, who, node);
    }

    /** Ironic's HTTPForbidden: the rules refused, by name. */
    public static ApiError forbidden(Collection<String> rules) {
        return new ApiError(403, "Access was denied to the following resource: " + String.join(", ", rules));
    }

    public static NodeOwnership ownership(NodeSnapshot node) {
        return new NodeOwnership(node.getOwner(), node.getLessee());
    }
}
