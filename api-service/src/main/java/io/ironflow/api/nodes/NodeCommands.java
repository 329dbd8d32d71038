package io.ironflow.api.nodes;

import io.ironflow.api.auth.Access;
import io.ironflow.api.intents.IntentGateway;
import io.ironflow.events.IntentResult;
import io.ironflow.policy.IntentRules;
import io.ironflow.policy.Principal;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.net.URI;
import java.util.Set;
import java.util.UUID;
import org.jboss.resteasy.reactive.RestResponse;

/**
 * How every /v1/nodes/{ident} write goes: resolve the ident (uuid or name) to the node's uuid, 404 if there is
 * none or the caller may not see it, 403 if the caller may not send this command (io.ironflow.policy.IntentRules),
 * then send the command as an intent keyed by that uuid, for the caller, and wait for the conductor's acceptance.
 * <p>
 * A node named by its uuid, for a caller the policy allows the command on every node (an operator), is not read
 * first: no owner or lessee could change the answer, and whether the node exists the conductor tells on the row it
 * locks, with the same 404. It checks every intent against the same rules anyway, so this skips a read, not a check.
 */
@ApplicationScoped
public class NodeCommands {

    private final NodeReader reader;
    private final IntentGateway intents;
    private final Access access;

    NodeCommands(NodeReader reader, IntentGateway intents, Access access) {
        this.reader = reader;
        this.intents = intents;
        this.access = access;
    }

    /** The conductor's result for {@code command} on the node {@code ident}, when it accepted it. */
    public Uni<IntentResult> send(String ident, Object command) {
        Principal who = access.caller();
        Set<String> rules = IntentRules.required(command);
        UUID uuid = NodeReader.parseUuid(ident);
        if (uuid != null && uuid.toString().equals(ident) && access.allowsWhoeverOwns(who, rules)) {
            return intents.submit(ident, command, who);
        }
        return reader.requireUuid(ident, who, rules).flatMap(found -> intents.submit(found.toString(), command, who));
    }

    /** Ironic's answer to an accepted state change: 202, no body, and where to watch the node's states. */
    static RestResponse<Void> acceptedStates(IntentResult result, URI base) {
        return RestResponse.ResponseBuilder.<Void>accepted()
                .location(URI.create(base + "v1/nodes/" + result.getNodeUuid() + "/states"))
                .build();
    }
}
