package io.ironflow.api.nodes;

import io.ironflow.api.intents.IntentGateway;
import io.ironflow.events.IntentResult;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.net.URI;
import org.jboss.resteasy.reactive.RestResponse;

/**
 * How every /v1/nodes/{ident} write goes: resolve the ident (uuid or name) to the node's uuid, 404 if there is
 * none, then send the command as an intent keyed by that uuid and wait for the conductor's acceptance.
 */
@ApplicationScoped
public class NodeCommands {

    private final NodeReader reader;
    private final IntentGateway intents;

    NodeCommands(NodeReader reader, IntentGateway intents) {
        this.reader = reader;
        this.intents = intents;
    }

    /** The conductor's result for {@code command} on the node {@code ident}, when it accepted it. */
    public Uni<IntentResult> send(String ident, Object command) {
        return reader.require(ident).flatMap(node -> intents.submit(node.getUuid(), command, Requester.ANONYMOUS));
    }

    /** Ironic's answer to an accepted state change: 202, no body, and where to watch the node's states. */
    static RestResponse<Void> acceptedStates(IntentResult result, URI base) {
        return RestResponse.ResponseBuilder.<Void>accepted()
                .location(URI.create(base + "v1/nodes/" + result.getNodeUuid() + "/states"))
                .build();
    }
}
