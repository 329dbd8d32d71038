package io.ironflow.oneview.allocation;

import com.fasterxml.jackson.databind.JsonNode;
import io.ironflow.oneview.client.OneViewClient;
import io.ironflow.oneview.client.OneViewFailure;
import io.ironflow.oneview.client.OneViewUnavailable;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;

/**
 * Applies and removes a node's server profile as the dynamic-allocation spec says (Ironic's
 * {@code allocate_server_hardware_to_ironic} / {@code deallocate_server_hardware_from_ironic}).
 * Apply: hardware held by a OneView user fails (the message names the holder's profile); Ironflow's own
 * profile is reused; free hardware gets a new profile from the node's template, named
 * {@code "Ironflow Deploy [<node>]"} or {@code "Ironflow Cleaning [<node>]"} (a stale applied_server_profile_uri
 * is replaced). Remove: only Ironflow's profile, after powering the hardware off; anything else is left alone.
 * Every OneView failure becomes a failed allocation with OneView's message; nothing is thrown.
 */
@ApplicationScoped
public class Allocator {

    private static final Logger LOG = Logger.getLogger(Allocator.class);

    public enum Purpose { DEPLOY, CLEANING }

    private final OneViewClient oneView;

    Allocator(OneViewClient oneView) {
        this.oneView = oneView;
    }

    public Allocation apply(String node, Purpose purpose, String serverHardwareUri, String templateUri, String applied) {
        if (serverHardwareUri == null || serverHardwareUri.isBlank()) {
            return Allocation.failed("Node " + node + " has no driver_info.server_hardware_uri.", false);
        }
        try {
            JsonNode hardware = oneView.serverHardware(serverHardwareUri);
            String profile = text(hardware, "serverProfileUri");
            switch (Ownership.of(profile, applied)) {
                case ONEVIEW:
                    return Allocation.failed(inUseMessage(node, hardware, profile), true);
                case IRONFLOW:
                    return Allocation.applied(profile, true);
                default:
                    break;
            }
            if (templateUri == null || templateUri.isBlank()) {
                return Allocation.failed("Node " + node + " has no server_profile_template_uri in properties.capabilities.", false);
            }
            if (applied != null) {
                LOG.infof("node %s: applied_server_profile_uri %s is no longer on %s; applying a new profile", node, applied,
                        serverHardwareUri);
            }
            String name = (purpose == Purpose.DEPLOY ? "Ironflow Deploy [" : "Ironflow Cleaning [") + node + "]";
            return Allocation.applied(oneView.createProfileFromTemplate(templateUri, serverHardwareUri, name), false);
        } catch (OneViewFailure e) {
            boolean taken = "PROFILE_ALREADY_EXISTS_IN_SERVER".equals(e.errorCode());
            return Allocation.failed("OneView could not apply a server profile to " + serverHardwareUri + " for node " + node
                    + (taken ? " (in use by OneView)" : "") + ": " + e.getMessage(), taken);
        } catch (OneViewUnavailable e) {
            return Allocation.failed("OneView is unavailable: " + e.getMessage(), false);
        }
    }

    public Allocation remove(String node, String serverHardwareUri, String applied) {
        if (serverHardwareUri == null || serverHardwareUri.isBlank()) {
            return Allocation.removed(applied != null);
        }
        try {
            JsonNode hardware = oneView.serverHardware(serverHardwareUri);
            String profile = text(hardware, "serverProfileUri");
            switch (Ownership.of(profile, applied)) {
                case IRONFLOW:
                    oneView.powerOff(serverHardwareUri);
                    oneView.deleteProfile(profile);
                    return Allocation.removed(true);
                case ONEVIEW:
                    LOG.warnf("node %s: %s carries %s, which is not Ironflow's; nothing removed", node, serverHardwareUri, profile);
                    return Allocation.removed(false);
                default:
                    return Allocation.removed(applied != null);
            }
        } catch (OneViewFailure e) {
            return Allocation.failed("OneView could not remove the server profile of node " + node + " from "
                    + serverHardwareUri + ": " + e.getMessage(), false);
        } catch (OneViewUnavailable e) {
            return Allocation.failed("OneView is unavailable: " + e.getMessage(), false);
        }
    }

    /** Who holds the node, for periodic checks: the ownership of its hardware now. */
    public Ownership ownership(String serverHardwareUri, String applied) {
        return Ownership.of(text(oneView.serverHardware(serverHardwareUri), "serverProfileUri"), applied);
    }

    private String inUseMessage(String node, JsonNode hardware, String profile) {
        String holder = profile;
        try {
            holder = "'" + oneView.profile(profile).path("name").asText() + "' (" + profile + ")";
        } catch (RuntimeException e) {
            // the name is a courtesy; the URI says it already
        }
        return "Node " + node + " is in use by OneView: server hardware " + hardware.path("name").asText()
                + " (" + hardware.path("uri").asText() + ") carries the server profile " + holder + ", not Ironflow's.";
    }

    private static String text(JsonNode node, String field) {
        JsonNode value = node.path(field);
        return value.isTextual() && !value.asText().isEmpty() ? value.asText() : null;
    }
}
