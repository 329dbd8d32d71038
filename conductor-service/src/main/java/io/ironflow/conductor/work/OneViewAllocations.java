package io.ironflow.conductor.work;

import io.ironflow.conductor.domain.hardware.Drivers;
import io.ironflow.conductor.domain.ProvisionEvent;
import io.ironflow.conductor.domain.ProvisionState;
import io.ironflow.conductor.domain.hardware.OneViewHardware;
import io.ironflow.conductor.messaging.Outbox;
import io.ironflow.conductor.persistence.NodeEntity;
import io.ironflow.events.AllocationAction;
import io.ironflow.events.AllocationPurpose;
import io.ironflow.events.AllocationRequest;
import io.ironflow.schemas.Topic;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import org.jboss.logging.Logger;

/**
 * The conductor's half of OneView dynamic allocation (the spec's prepare / prepare_cleaning /
 * tear_down_cleaning for {@code oneview} nodes): before deploying or cleaning runs its steps, the node asks the
 * oneview-allocator for a server profile and waits in deploy wait / clean wait; after the clean steps it asks for
 * the profile's removal and waits again. The request goes out through the outbox with the transition that parks
 * the node; {@link AllocationResults} takes the answer. Per operation, driver_internal_info keeps the pending
 * request ({@value #PENDING}) and how far the profile got ({@value #HELD}: applied, then released); a failure
 * because OneView holds the hardware is marked {@value #ERROR} = {@value #ALLOCATION_ERROR}, as Ironic did, for
 * the allocator's clean-failed check. Nodes with {@code dynamic_allocation: false} (pre-allocation, deprecated)
 * ask nothing.
 */
final class OneViewAllocations {

    private static final Logger LOG = Logger.getLogger(OneViewAllocations.class);

    static final String PENDING = "oneview_allocation";
    static final String HELD = "oneview_profile";
    static final String ERROR = "oneview_error";
    static final String ALLOCATION_ERROR = "server hardware allocation error";
    static final String TEMPLATE = "server_profile_template_uri";

    private OneViewAllocations() {
    }

    /** A oneview node with dynamic allocation; a pre-allocated one is warned about once per operation. */
    private static boolean dynamic(NodeEntity node) {
        if (!Drivers.ONEVIEW.equals(node.driver)) {
            return false;
        }
        if (!OneViewHardware.dynamicAllocation(node.driverInfo)) {
            LOG.warnf("node %s uses OneView pre-allocation (driver_info.dynamic_allocation=false), which is deprecated;"
                    + " migrate it to dynamic allocation with the oneview-allocator's migrate command", node.uuid);
            node.driverInternalInfo.put(HELD, "pre-allocated");
            return false;
        }
        return true;
    }

    /** A new deploy or cleaning starts: it has no profile of its own yet, and the last one's error is over. */
    static void reset(NodeEntity node) {
        node.driverInternalInfo.remove(PENDING);
        node.driverInternalInfo.remove(HELD);
        node.driverInternalInfo.remove(ERROR);
    }

    /** Deploying or cleaning is about to run its steps without the server profile it needs. */
    static boolean mustApply(NodeEntity node, ProvisionState state) {
        return (state == ProvisionState.DEPLOYING || state == ProvisionState.CLEANING)
                && !node.driverInternalInfo.containsKey(HELD) && dynamic(node);
    }

    /** Cleaning ran its steps with the profile applied for it: remove it before the node is released. */
    static boolean mustRemove(NodeEntity node, ProvisionState state) {
        return state == ProvisionState.CLEANING && "applied".equals(node.driverInternalInfo.get(HELD)) && dynamic(node);
    }

    /** Asks the allocator (published with this change) and parks the node, unreserved, in the wait state. */
    static void request(NodeChange change, AllocationAction action, Duration patience) {
        NodeEntity node = change.node();
        String requestId = UUID.randomUUID().toString();
        Map<String, Object> pending = new LinkedHashMap<>();
        pending.put("request_id", requestId);
        pending.put("action", action.name());
        node.driverInternalInfo.put(PENDING, pending);
        change.publish(requestOf(change, requestId, action, patience));
        change.aggregate().release(); // wait states hold no reservation
        change.fire(ProvisionEvent.WAIT);
    }

    /**
     * A cleaning ends failed or aborted (Ironic's tear_down_cleaning, which its cleaning_error_handler and
     * do_node_clean_abort call): the profile applied for it, or whose APPLY is still out, is given back. Nothing
     * waits for the answer (the allocator forgets applied_server_profile_uri itself); a REMOVE already out, or one
     * that just failed, is not sent again.
     */
    static void giveBack(NodeChange change, Duration patience) {
        NodeEntity node = change.node();
        String pending = node.driverInternalInfo.get(PENDING) instanceof Map<?, ?> p && p.get("action") instanceof String a ? a : null;
        // applied_server_profile_uri too: a tear-down's profile, which the cleaning after it had not yet re-applied
        boolean held = "applied".equals(node.driverInternalInfo.get(HELD))
                || node.driverInfo.get(OneViewHardware.APPLIED_SERVER_PROFILE_URI) instanceof String;
        node.driverInternalInfo.remove(PENDING); // a late answer finds no node waiting for it
        if ((held || AllocationAction.APPLY.name().equals(pending)) && !AllocationAction.REMOVE.name().equals(pending) && dynamic(node)) {
            change.publish(requestOf(change, UUID.randomUUID().toString(), AllocationAction.REMOVE, patience));
            node.driverInternalInfo.put(HELD, "given back");
        }
    }

    /** A REMOVE whose answer is a failure: the operation fails with it, and is not to ask again. */
    static void removalFailed(NodeEntity node) {
        node.driverInternalInfo.put(HELD, "removal failed");
    }

    private static Outbox.Entry requestOf(NodeChange change, String requestId, AllocationAction action, Duration patience) {
        NodeEntity node = change.node();
        Object applied = node.driverInfo.get(OneViewHardware.APPLIED_SERVER_PROFILE_URI);
        Object hardware = node.driverInfo.get(OneViewHardware.SERVER_HARDWARE_URI);
        Instant now = Instant.now();
        return new Outbox.Entry(Topic.ALLOCATION_REQUESTS, node.uuid.toString(), AllocationRequest.newBuilder()
                .setRequestId(requestId)
                .setNodeUuid(node.uuid.toString())
                .setAction(action)
                .setPurpose(change.state() == ProvisionState.DEPLOYING ? AllocationPurpose.DEPLOY : AllocationPurpose.CLEANING)
                .setServerHardwareUri(hardware instanceof String s ? s : null)
                .setServerProfileTemplateUri(templateUri(node))
                .setAppliedServerProfileUri(applied instanceof String s ? s : null)
                .setRequestedAt(now)
                .setDeadline(now.plus(patience))
                .build());
    }

    /**
     * {@code properties.capabilities}: Ironic's "key:value,key:value" string, or an object.
     * The template URI holds no comma or colon, so the first colon splits each pair.
     */
    static String templateUri(NodeEntity node) {
        Object capabilities = node.properties.get("capabilities");
        if (capabilities instanceof Map<?, ?> map) {
            return map.get(TEMPLATE) instanceof String s ? s : null;
        }
        if (capabilities instanceof String text) {
            for (String pair : text.split(",")) {
                int colon = pair.indexOf(':');
                if (colon > 0 && pair.substring(0, colon).strip().equals(TEMPLATE)) {
                    return pair.substring(colon + 1).strip();
                }
            }
        }
        return null;
    }

    /** The request id the node waits for, or null. */
    static String pendingRequest(NodeEntity node) {
        return node.driverInternalInfo.get(PENDING) instanceof Map<?, ?> pending && pending.get("request_id") instanceof String id
                ? id : null;
    }
}
