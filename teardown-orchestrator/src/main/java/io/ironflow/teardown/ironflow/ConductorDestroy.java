package io.ironflow.teardown.ironflow;

import io.ironflow.policy.IntentRules;
import io.ironflow.policy.Principal;
import io.ironflow.events.ChangePowerState;
import io.ironflow.events.NodeIntent;
import io.ironflow.intents.IntentSigner;
import jakarta.annotation.PostConstruct;
import java.nio.file.Path;
import io.ironflow.events.ProvisionAction;
import io.ironflow.events.UpdateNode;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import java.util.function.Predicate;
import io.ironflow.teardown.status.StatusMessage;
import io.ironflow.teardown.status.StepFailure;
import io.smallrye.reactive.messaging.MutinyEmitter;
import io.smallrye.reactive.messaging.kafka.api.OutgoingKafkaRecordMetadata;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.jboss.logging.Logger;

/**
 * Drydock's destroy_nodes, through Ironflow's conductor and never around it: an undeploy intent (provision verb
 * {@code deleted}), whose automated cleaning erases every disk, then, once the node rests available (or
 * manageable, where a retired node goes), a {@code power off} intent. With {@code preserve-local-storage} an
 * update intent first sets Ironic's {@code properties.skip_block_devices} to the node's data disks
 * ({@link LocalDisks}), so the cleaning erases only the OS disk, and once the node is at rest gives the node back
 * the operator's own list ({@link OperatorSkipLists}; none: the list is removed). The node is followed on
 * Ironflow's API every {@code destroy.poll-interval} up to {@code destroy.timeout} (a poll the API does not answer
 * is tried again at the next); an intent the conductor refuses
 * ({@link IntentAnswers}) fails the step at once with the conductor's reason. Intent ids are derived from the action
 * and the node, so a step run again after a restart sends the same intents and the conductor answers them without
 * applying them twice.
 */
@ApplicationScoped
public class ConductorDestroy {

    static final Set<String> AT_REST = Set.of("available", "manageable");
    static final Set<String> TEARING_DOWN = Set.of("deleting", "cleaning", "clean wait");
    static final Set<String> DEPLOYED = Set.of("active", "deploy failed", "wait call-back", "rescue", "rescue failed",
            "unrescue failed", "rescue wait");

    private static final String SKIP = "skip_block_devices";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Logger LOG = Logger.getLogger(ConductorDestroy.class);

    @Inject
    IronflowNodes nodes;

    @Inject
    IntentAnswers answers;

    @Inject
    OperatorSkipLists skipLists;

    @Inject
    @Channel("node-intents")
    MutinyEmitter<NodeIntent> intents;

    @ConfigProperty(name = "ironflow.teardown.destroy.poll-interval")
    Duration pollInterval;

    /** The orchestrator's intent key, which the conductors trust for its service principal only. */
    @ConfigProperty(name = "ironflow.intents.signing-key")
    Path signingKey;

    private IntentSigner signer;

    @PostConstruct
    void readSigningKey() {
        signer = new IntentSigner(signingKey);
    }

    @ConfigProperty(name = "ironflow.teardown.destroy.timeout")
    Duration timeout;

    /**
     * Undeploys (erasing every disk, or only the OS disk when {@code preserveLocalStorage}), powers off; answers
     * what was done, or throws a 500 DestroyNodeError.
     */
    public List<StatusMessage> destroy(String actionId, String name, boolean preserveLocalStorage) {
        List<String> sent = new ArrayList<>();
        try {
            return destroy(actionId, name, preserveLocalStorage, sent);
        } catch (StepFailure failed) {
            throw preserveLocalStorage ? stillPreserving(actionId, name, failed) : failed;
        } finally {
            sent.forEach(answers::forget); // however the step ends: nobody waits for these answers any more
        }
    }

    private List<StatusMessage> destroy(String actionId, String name, boolean preserveLocalStorage, List<String> sent) {
        Instant deadline = Instant.now().plus(timeout);
        List<StatusMessage> done = new ArrayList<>();
        IronflowNodes.NodeView node = require(name);
        if (DEPLOYED.contains(node.provisionState()) && preserveLocalStorage) {
            List<String> keep = LocalDisks.dataDisks(node.document());
            if (!keep.isEmpty()) {
                ArrayNode skip = JSON.createArrayNode();
                keep.forEach(disk -> skip.addObject().put("name", disk));
                ArrayNode patch = JSON.createArrayNode();
                patch.addObject().put("op", "add").put("path", "/properties/" + SKIP).set("value", skip);
                skipLists.remember(actionId, name, node.document().path("properties").path(SKIP));
                Sent marked = send(sent, actionId, node, "skip-data-disks", UpdateNode.newBuilder().setPatch(patch.toString()).build());
                node = awaitNode(name, deadline, done, "its data disks marked to skip", marked,
                        n -> skip.equals(n.document().path("properties").path(SKIP)));
                done.add(StatusMessage.info(name, "local storage preserved: cleaning skips " + String.join(", ", keep)));
            }
        }
        Sent undeploy = null;
        if (DEPLOYED.contains(node.provisionState())) {
            undeploy = send(sent, actionId, node, "undeploy", ProvisionAction.newBuilder().setTarget("deleted").build());
            done.add(StatusMessage.info(name, "undeploy sent (" + node.provisionState() + "); automated cleaning erases every disk"));
        }
        while (!AT_REST.contains(node.provisionState())) {
            if (!DEPLOYED.contains(node.provisionState()) && !TEARING_DOWN.contains(node.provisionState())) {
                throw failure(name, "node " + name + " went to " + node.provisionState()
                        + (node.lastError() == null ? "" : ": " + node.lastError()), done);
            }
            requireAccepted(name, undeploy, done);
            if (Instant.now().isAfter(deadline)) {
                throw failure(name, "node " + name + " is still " + node.provisionState() + " after " + timeout.toSeconds() + " s", done);
            }
            sleep(pollInterval);
            node = reread(name, node, deadline, done);
        }
        done.add(StatusMessage.info(name, "node " + name + " is " + node.provisionState()));
        if (preserveLocalStorage) {
            node = restoreSkipList(sent, actionId, node, deadline, done);
        }
        if (!"power off".equals(node.powerState())) {
            Sent powerOff = send(sent, actionId, node, "power-off", ChangePowerState.newBuilder().setTarget("power off").build());
            while (!"power off".equals(node.powerState())) {
                requireAccepted(name, powerOff, done);
                if (Instant.now().isAfter(deadline)) {
                    throw failure(name, "node " + name + " is still " + node.powerState() + " after " + timeout.toSeconds() + " s", done);
                }
                sleep(pollInterval);
                node = reread(name, node, deadline, done);
            }
        }
        done.add(StatusMessage.info(name, "node " + name + " powered off"));
        return done;
    }

    /**
     * Gives the node back the skip list it had before this action replaced it: the operator's own, or none. A node
     * whose list this action did not replace keeps whatever it has.
     */
    private IronflowNodes.NodeView restoreSkipList(List<String> sent, String actionId, IronflowNodes.NodeView node,
            Instant deadline, List<StatusMessage> done) {
        Optional<JsonNode> original = skipLists.original(actionId, node.name());
        if (original.isEmpty() || original.get().equals(node.document().path("properties").path(SKIP))) {
            return node;
        }
        JsonNode before = original.get();
        ArrayNode patch = JSON.createArrayNode();
        if (before.isMissingNode()) {
            patch.addObject().put("op", "remove").put("path", "/properties/" + SKIP);
        } else {
            patch.addObject().put("op", "add").put("path", "/properties/" + SKIP).set("value", before);
        }
        Sent restored = send(sent, actionId, node, "unskip-data-disks", UpdateNode.newBuilder().setPatch(patch.toString()).build());
        return awaitNode(node.name(), deadline, done, before.isMissingNode() ? "its skip list removed" : "the operator's skip list back",
                restored, n -> before.equals(n.document().path("properties").path(SKIP)));
    }

    /**
     * A failed destroy that had replaced the node's skip list leaves it in place, and says so: restoring the
     * operator's list would let the operator's next cleaning (the retry of a clean failed, say) wipe the data disks
     * this action was asked to keep, which cannot be undone; a list left too long only keeps data.
     */
    private StepFailure stillPreserving(String actionId, String name, StepFailure failed) {
        Optional<JsonNode> original = skipLists.original(actionId, name);
        JsonNode now;
        try {
            now = nodes.find(name).map(n -> n.document().path("properties").path(SKIP)).orElse(null);
        } catch (IllegalStateException e) {
            return failed; // the node cannot be read: nothing more is known than the failure says
        }
        if (original.isEmpty() || now == null || now.isMissingNode() || now.equals(original.get())) {
            return failed;
        }
        String note = "local storage is still preserved: properties.skip_block_devices of node " + name + " is " + now
                + ", so cleaning skips those disks until it is changed back to the operator's "
                + (original.get().isMissingNode() ? "(none)" : original.get().toString());
        List<StatusMessage> details = new ArrayList<>(failed.status().details().messageList());
        details.add(StatusMessage.info(name, note));
        return new StepFailure(failed.status().code(), failed.status().reason(), failed.status().message() + "; " + note, details);
    }

    /**
     * Polls the node until {@code reached} holds for it, up to the deadline; the conductor refusing
     * {@code intent} ends the wait at once.
     */
    private IronflowNodes.NodeView awaitNode(String name, Instant deadline, List<StatusMessage> done, String what,
            Sent intent, Predicate<IronflowNodes.NodeView> reached) {
        IronflowNodes.NodeView node = require(name);
        while (!reached.test(node)) {
            requireAccepted(name, intent, done);
            if (Instant.now().isAfter(deadline)) {
                throw failure(name, "node " + name + " does not have " + what + " after " + timeout.toSeconds() + " s", done);
            }
            sleep(pollInterval);
            node = reread(name, node, deadline, done);
        }
        return node;
    }

    /** Fails the step with the conductor's reason once it refused {@code intent} (null: nothing was sent). */
    private void requireAccepted(String name, Sent intent, List<StatusMessage> done) {
        Optional<IntentAnswers.Answer> answer = intent == null ? Optional.empty() : answers.answer(intent.id());
        if (answer.isPresent() && !answer.get().accepted()) {
            throw failure(name, "the conductor refused the " + intent.what() + " intent for node " + name + " ("
                    + answer.get().code() + "): " + answer.get().errorMessage(), done);
        }
    }

    /** An intent this step sent: its id, and what it asks (skip-data-disks, undeploy, ...). */
    private record Sent(String id, String what) {
    }

    /**
     * The node read again for the next poll. Ironflow's API away for a moment (a 503, a refused connection) is not
     * the destroy's failure: the last view stands and the next poll tries again, up to the step's deadline.
     */
    private IronflowNodes.NodeView reread(String name, IronflowNodes.NodeView last, Instant deadline, List<StatusMessage> done) {
        try {
            return nodes.find(name).orElseThrow(() -> failure(name, "Ironflow does not know node " + name, done));
        } catch (IronflowNodes.Unreachable e) {
            if (Instant.now().isAfter(deadline)) {
                throw failure(name, e.getMessage(), done);
            }
            LOG.warnf("destroy of %s: %s; trying again at the next poll", name, e.getMessage());
            return last;
        } catch (IllegalStateException e) {
            throw failure(name, e.getMessage(), done);
        }
    }

    private IronflowNodes.NodeView require(String name) {
        try {
            return nodes.find(name).orElseThrow(() -> failure(name, "Ironflow does not know node " + name, List.of()));
        } catch (IllegalStateException e) {
            throw failure(name, e.getMessage(), List.of());
        }
    }

    /** Sends the intent and adds its id to {@code sent}; its answer is kept from before it is sent. */
    private Sent send(List<String> sent, String actionId, IronflowNodes.NodeView node, String what, Object command) {
        String intentId = UUID.nameUUIDFromBytes((actionId + "/" + node.uuid() + "/" + what).getBytes(StandardCharsets.UTF_8)).toString();
        NodeIntent intent = NodeIntent.newBuilder().setIntentId(intentId).setNodeUuid(node.uuid())
                .setRequester("teardown-orchestrator/" + actionId).setRequestedAt(Instant.now()).setCommand(command)
                // the service role with system scope: what the conductor lets the orchestrator do (docs/rbac.md)
                .setPrincipal(IntentRules.toAvro(Principal.service("teardown-orchestrator"))).build();
        signer.sign(intent);
        answers.expect(intentId);
        sent.add(intentId);
        try {
            intents.sendMessageAndAwait(Message.of(intent)
                    .addMetadata(OutgoingKafkaRecordMetadata.<String>builder().withKey(node.uuid()).build()));
        } catch (RuntimeException e) {
            throw failure(node.name(), "the " + what + " intent could not be sent: " + e.getMessage(), List.of());
        }
        return new Sent(intentId, what);
    }

    private static StepFailure failure(String node, String message, List<StatusMessage> done) {
        List<StatusMessage> details = new ArrayList<>(done);
        details.add(StatusMessage.error(node, message));
        return new StepFailure(500, "DestroyNodeError", message, details);
    }

    private static void sleep(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StepFailure(500, "DestroyNodeError", "interrupted");
        }
    }
}
