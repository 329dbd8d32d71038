package io.ironflow.oneview.allocation;

import com.fasterxml.jackson.databind.JsonNode;
import io.ironflow.oneview.client.OneViewClient;
import io.ironflow.oneview.client.OneViewFailure;
import io.ironflow.oneview.client.OneViewUnavailable;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import org.jboss.logging.Logger;

/**
 * Applies and removes a node's server profile as the dynamic-allocation spec says (Ironic's
 * {@code allocate_server_hardware_to_ironic} / {@code deallocate_server_hardware_from_ironic}).
 * Apply: hardware held by a OneView user fails (the message names the holder's profile); Ironflow's own
 * profile is reused; free hardware gets a new profile from the node's template, named
 * {@code "Ironflow Deploy [<node>]"} or {@code "Ironflow Cleaning [<node>]"} and signed with {@link ProfileMark}
 * (a stale applied_server_profile_uri is replaced). A profile that the spec's rule alone calls OneView's but
 * that carries this node's mark is Ironflow's own, left unrecorded by a crash between creating it and answering:
 * it is adopted (recorded), never refused. Remove: only Ironflow's profile, after powering the hardware off;
 * anything else is left alone.
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

    /** Applies, or adopts, the node's profile; OneView's tasks are followed until they end or {@code deadline} passes. */
    public Allocation apply(String node, String requestId, Purpose purpose, String serverHardwareUri, String templateUri,
            String applied, Instant deadline) {
        if (serverHardwareUri == null || serverHardwareUri.isBlank()) {
            return Allocation.failed("Node " + node + " has no driver_info.server_hardware_uri.", false);
        }
        boolean creating = false;
        try {
            JsonNode hardware = oneView.serverHardware(serverHardwareUri);
            String profile = text(hardware, "serverProfileUri");
            switch (judge(node, profile, applied)) {
                case ONEVIEW:
                    return Allocation.failed(inUseMessage(node, hardware, profile), true);
                case IRONFLOW:
                    Allocation adopted = adopt(node, serverHardwareUri, hardware, applied, deadline);
                    if (adopted != null) {
                        return adopted;
                    }
                    hardware = oneView.serverHardware(serverHardwareUri); // its profile did not apply: start afresh
                    if (text(hardware, "serverProfileUri") != null) {
                        return Allocation.failed("The server profile " + profile + " Ironflow created for node " + node
                                + " did not apply to " + serverHardwareUri + " (" + hardware.path("state").asText() + ").", false);
                    }
                    break;
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
            creating = true;
            return Allocation.applied(oneView.createProfileFromTemplate(templateUri, serverHardwareUri, name,
                    ProfileMark.describe(node, requestId), deadline), false).withPower(power(hardware));
        } catch (OneViewFailure | OneViewUnavailable e) {
            // The profile may be there all the same: a POST whose answer was lost, retried, is refused as a
            // duplicate; a task followed past its timeout may yet end. What is on the hardware decides.
            Allocation afterAll = creating ? afterFailure(node, serverHardwareUri, applied, deadline) : null;
            if (afterAll != null) {
                return afterAll;
            }
            if (e instanceof OneViewUnavailable) {
                return Allocation.failed("OneView is unavailable: " + e.getMessage(), false);
            }
            boolean taken = "PROFILE_ALREADY_EXISTS_IN_SERVER".equals(((OneViewFailure) e).errorCode());
            return Allocation.failed("OneView could not apply a server profile to " + serverHardwareUri + " for node " + node
                    + (taken ? " (in use by OneView)" : "") + ": " + e.getMessage(), taken);
        }
    }

    /**
     * After a failed apply: Ironflow's profile for this node on the hardware is adopted (once applied), a OneView
     * user's is named as the holder (they won the race between our look and our POST); null when the hardware
     * says nothing more (free, or unreadable), and the failure stands.
     */
    private Allocation afterFailure(String node, String serverHardwareUri, String applied, Instant deadline) {
        try {
            JsonNode hardware = oneView.serverHardware(serverHardwareUri);
            String holder = text(hardware, "serverProfileUri");
            return switch (judge(node, holder, applied)) {
                case IRONFLOW -> adopt(node, serverHardwareUri, hardware, applied, deadline);
                case ONEVIEW -> Allocation.failed(inUseMessage(node, hardware, holder), true);
                default -> null;
            };
        } catch (RuntimeException again) {
            return null;
        }
    }

    /**
     * Ironflow's profile for this node on the hardware, once OneView has finished applying it: a profile still
     * being applied is not yet usable, and one whose task fails is removed by OneView. Null when it did not apply.
     */
    private Allocation adopt(String node, String serverHardwareUri, JsonNode hardware, String applied, Instant deadline) {
        String profile = text(hardware, "serverProfileUri");
        hardware = oneView.settled(serverHardwareUri, hardware, deadline);
        if (!profile.equals(text(hardware, "serverProfileUri")) || !"ProfileApplied".equals(hardware.path("state").asText())) {
            LOG.infof("node %s: %s on %s did not apply (%s)", node, profile, serverHardwareUri, hardware.path("state").asText());
            return null;
        }
        if (!profile.equals(applied)) {
            LOG.infof("node %s: adopting %s on %s, created by Ironflow for it but never recorded (an answer lost, or a"
                    + " crash between creating and answering)", node, profile, serverHardwareUri);
        }
        return Allocation.applied(profile, profile.equals(applied)).withPower(power(hardware));
    }

    /**
     * Removes Ironflow's profile from the node's hardware (powering it off first), waiting for OneView's tasks
     * until they end or {@code deadline} (null: the task timeout) passes.
     */
    public Allocation remove(String node, String serverHardwareUri, String applied, Instant deadline) {
        if (serverHardwareUri == null || serverHardwareUri.isBlank()) {
            return Allocation.removed(applied != null);
        }
        try {
            JsonNode hardware = oneView.serverHardware(serverHardwareUri);
            String profile = text(hardware, "serverProfileUri");
            switch (judge(node, profile, applied)) {
                case IRONFLOW:
                    oneView.powerOff(serverHardwareUri, deadline);
                    delete(serverHardwareUri, profile, deadline);
                    return Allocation.removed(true).withPower(PowerStates.POWER_OFF);
                case ONEVIEW:
                    LOG.warnf("node %s: %s carries %s, which is not Ironflow's; nothing removed", node, serverHardwareUri, profile);
                    return Allocation.removed(false).withPower(power(hardware));
                default:
                    return Allocation.removed(applied != null).withPower(power(hardware));
            }
        } catch (OneViewFailure e) {
            return Allocation.failed("OneView could not remove the server profile of node " + node + " from "
                    + serverHardwareUri + ": " + e.getMessage(), false);
        } catch (OneViewUnavailable e) {
            return Allocation.failed("OneView is unavailable: " + e.getMessage(), false);
        }
    }

    /**
     * Deletes the profile. A 404 is the answer to a DELETE retried after its first answer was lost (the appliance
     * deleted it all the same): once the hardware has settled without a profile, that is the removal done.
     */
    private void delete(String serverHardwareUri, String profile, Instant deadline) {
        try {
            oneView.deleteProfile(profile, deadline);
        } catch (OneViewFailure e) {
            if (e.status() != 404) {
                throw e;
            }
            JsonNode hardware = oneView.settled(serverHardwareUri, oneView.serverHardware(serverHardwareUri), deadline);
            if (text(hardware, "serverProfileUri") != null) {
                throw e;
            }
            LOG.infof("%s is gone from %s already (a DELETE whose answer was lost, retried)", profile, serverHardwareUri);
        }
    }

    /**
     * Sets the node's power through OneView, as Ironic's OneView power interface did: power on = {On,
     * MomentaryPress}; power off = {Off, PressAndHold}; soft power off = {Off, MomentaryPress}; rebooting = power
     * off, then on; soft rebooting = {On, Reset}. Refused, as Ironic's set_power_state, when a OneView user holds
     * the hardware. Each task is followed until it ends or {@code deadline} passes; a failure carries OneView's
     * message.
     */
    public Allocation power(String node, String serverHardwareUri, String applied, boolean preAllocated, String target,
            Instant deadline) {
        if (serverHardwareUri == null || serverHardwareUri.isBlank()) {
            return Allocation.failed("Node " + node + " has no driver_info.server_hardware_uri.", false);
        }
        try {
            JsonNode hardware = oneView.serverHardware(serverHardwareUri);
            String profile = text(hardware, "serverProfileUri");
            // Pre-allocation (deprecated): the profile on the hardware is the node's own by definition.
            if (!preAllocated && judge(node, profile, applied) == Ownership.ONEVIEW) {
                return Allocation.failed(inUseMessage(node, hardware, profile), true);
            }
            switch (target == null ? "" : target) {
                case "power on" -> oneView.setPower(serverHardwareUri, "On", "MomentaryPress", deadline);
                case "power off" -> oneView.setPower(serverHardwareUri, "Off", "PressAndHold", deadline);
                case "soft power off" -> oneView.setPower(serverHardwareUri, "Off", "MomentaryPress", deadline);
                case "rebooting" -> {
                    oneView.setPower(serverHardwareUri, "Off", "PressAndHold", deadline);
                    oneView.setPower(serverHardwareUri, "On", "MomentaryPress", deadline);
                }
                case "soft rebooting" -> oneView.setPower(serverHardwareUri, "On", "Reset", deadline);
                default -> {
                    return Allocation.failed("'" + target + "' is not a power target.", false);
                }
            }
            return new Allocation(true, null, null, false, Allocation.AppliedField.KEEP, PowerStates.endState(target));
        } catch (OneViewFailure e) {
            return Allocation.failed("OneView: " + e.getMessage(), false);
        } catch (OneViewUnavailable e) {
            return Allocation.failed("OneView is unavailable: " + e.getMessage(), false);
        }
    }

    /**
     * What the periodic pass sees of a node's hardware: the profile on it (null: free), its name, who holds it,
     * and its power in Ironic's words ({@link PowerStates}; null when OneView does not say).
     */
    public record Observation(String profileUri, String profileName, Ownership ownership, String powerState) {
    }

    /**
     * Reads the node's hardware; the profile itself is read only when its name is news ({@code known} is the
     * profile last recorded) or its mark may make it Ironflow's.
     */
    public Observation observe(String node, String serverHardwareUri, String applied, String known) {
        JsonNode hardware = oneView.serverHardware(serverHardwareUri);
        String profile = text(hardware, "serverProfileUri");
        String power = PowerStates.ironic(text(hardware, "powerState"));
        Ownership rule = Ownership.of(profile, applied);
        if (profile == null || (rule == Ownership.IRONFLOW && profile.equals(known))) {
            return new Observation(profile, null, rule, power);
        }
        JsonNode sp = oneView.profile(profile);
        if (rule == Ownership.ONEVIEW && ProfileMark.isFor(text(sp, "description"), node)) {
            rule = Ownership.IRONFLOW;
        }
        return new Observation(profile, text(sp, "name"), rule, power);
    }

    /** The spec's rule, except that a profile signed for this node ({@link ProfileMark}) is Ironflow's. */
    private Ownership judge(String node, String profile, String applied) {
        Ownership rule = Ownership.of(profile, applied);
        if (rule == Ownership.ONEVIEW && ProfileMark.isFor(text(oneView.profile(profile), "description"), node)) {
            return Ownership.IRONFLOW;
        }
        return rule;
    }

    /**
     * The refusal the node's readers see (last_error): the holder's profile by name, never by URI, which is what a
     * copied applied_server_profile_uri would need to have the profile deleted; the URI goes to the log only.
     */
    private String inUseMessage(String node, JsonNode hardware, String profile) {
        String holder = "a server profile";
        try {
            holder = "the server profile '" + oneView.profile(profile).path("name").asText() + "'";
        } catch (RuntimeException e) {
            // the name is a courtesy
        }
        LOG.infof("node %s: server hardware %s carries the server profile %s, not Ironflow's", node,
                hardware.path("uri").asText(), profile);
        return "Node " + node + " is in use by OneView: server hardware " + hardware.path("name").asText()
                + " (" + hardware.path("uri").asText() + ") carries " + holder + ", not Ironflow's.";
    }

    private static String power(JsonNode hardware) {
        return PowerStates.ironic(text(hardware, "powerState"));
    }

    private static String text(JsonNode node, String field) {
        JsonNode value = node.path(field);
        return value.isTextual() && !value.asText().isEmpty() ? value.asText() : null;
    }
}
