package io.ironflow.oneview.messaging;

import io.ironflow.events.IntentPrincipal;
import io.ironflow.intents.IntentSigner;
import java.nio.file.Path;
import io.ironflow.policy.IntentRules;
import io.ironflow.policy.Principal;
import io.ironflow.events.NodeIntent;
import io.ironflow.events.ObserveServerHardware;
import io.ironflow.events.ProvisionAction;
import io.ironflow.events.SetMaintenance;
import io.ironflow.events.UpdateNode;
import io.smallrye.reactive.messaging.MutinyEmitter;
import io.smallrye.reactive.messaging.kafka.api.OutgoingKafkaRecordMetadata;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Message;

/**
 * The allocator's only way to change a node: intents on ironflow.node-intents, keyed by node uuid, sent as
 * {@code oneview-allocator} and signed with the allocator's intent key ({@code ironflow.intents.signing-key}), which
 * the conductors trust for that principal only. The conductor applies them with its own rules and answers on
 * intent-results.
 */
@ApplicationScoped
public class NodeIntents {

    public static final String REQUESTER = "oneview-allocator";

    /** The service role with system scope: what the conductor lets the allocator do (docs/rbac.md). */
    private static final IntentPrincipal PRINCIPAL = IntentRules.toAvro(Principal.service(REQUESTER));
    public static final String APPLIED = "/driver_info/applied_server_profile_uri";
    private final MutinyEmitter<NodeIntent> intents;
    private final Duration sendTimeout;
    private final IntentSigner signer;

    NodeIntents(@Channel("node-intents") MutinyEmitter<NodeIntent> intents,
            @ConfigProperty(name = "mp.messaging.outgoing.node-intents.delivery.timeout.ms") long deliveryTimeoutMs,
            @ConfigProperty(name = "ironflow.intents.signing-key") Path signingKey) {
        this.intents = intents;
        this.signer = new IntentSigner(signingKey);
        this.sendTimeout = sendTimeout(deliveryTimeoutMs);
    }

    /**
     * How long a sender waits for the broker's acknowledgement: past the producer's {@code delivery.timeout.ms},
     * by which the producer has either delivered the record or failed it. A shorter wait would report a failure
     * for a record the producer may still deliver (an intent dead-lettered, then applied).
     */
    static Duration sendTimeout(long deliveryTimeoutMs) {
        return Duration.ofMillis(deliveryTimeoutMs).plusSeconds(5);
    }

    public void recordAppliedProfile(String node, String profileUri) {
        send(node, new UpdateNode("[{\"op\":\"add\",\"path\":\"" + APPLIED + "\",\"value\":\"" + profileUri + "\"}]"));
    }

    public void forgetAppliedProfile(String node) {
        send(node, new UpdateNode("[{\"op\":\"remove\",\"path\":\"" + APPLIED + "\"}]"));
    }

    /** What OneView says of the node's hardware now: its profile, for validation, and its power, for the power sync. */
    public void observed(String node, String serverHardwareUri, String profileUri, String profileName, String powerState) {
        send(node, new ObserveServerHardware(serverHardwareUri, profileUri, profileName, Instant.now(), powerState));
    }

    public void maintenance(String node, boolean on, String reason) {
        send(node, new SetMaintenance(on, reason));
    }

    public void provision(String node, String verb) {
        send(node, new ProvisionAction(verb, null, null, null, null));
    }

    /**
     * Sends and waits for the broker's acknowledgement, bounded by the producer's own delivery timeout, so an
     * intent is never silently lost, nor reported lost and delivered later.
     */
    public void send(String node, Object command) {
        NodeIntent intent = NodeIntent.newBuilder()
                .setIntentId(UUID.randomUUID().toString())
                .setNodeUuid(node)
                .setRequester(REQUESTER)
                .setPrincipal(PRINCIPAL)
                .setRequestedAt(Instant.now())
                .setCommand(command)
                .build();
        signer.sign(intent);
        intents.sendMessage(Message.of(intent).addMetadata(OutgoingKafkaRecordMetadata.<String>builder().withKey(node).build()))
                .await().atMost(sendTimeout);
    }
}
