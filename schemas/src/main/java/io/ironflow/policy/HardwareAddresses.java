package io.ironflow.policy;

import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * The driver_info fields that say which piece of shared hardware a node drives: OneView's server hardware, profile
 * template, enclosure group and allocation model, and the BMC address of every driver Ironic knows (its names).
 * The allocator and the BMCs act with the operator's credentials whatever node asks, so whoever writes one of
 * these fields chooses the hardware they act on: only {@link #RULE}'s holders may (system members and admins, and
 * Ironflow's services), at creation and by update. {@link #APPLIED_PROFILE} is the allocator's record of the
 * profile it applied: nobody writes it through the API, and the conductor takes it from the allocator's
 * principal alone ({@link #mayRecordAppliedProfile}).
 */
public final class HardwareAddresses {

    /** The rule a write of any of {@link #FIELDS} needs, on top of the field's own (update:driver_info, create). */
    public static final String RULE = "ironflow:node:update:driver_info:bmc_address";
    public static final String SERVER_HARDWARE_URI = "server_hardware_uri";
    public static final String APPLIED_PROFILE = "applied_server_profile_uri";
    /** The principal the oneview-allocator acts as ({@link Principal#service}). */
    public static final String ALLOCATOR = "oneview-allocator";

    /** The fields that address shared hardware. */
    public static final Set<String> FIELDS = Set.of(
            // OneView (the allocator acts with the appliance administrator's session)
            SERVER_HARDWARE_URI, "server_profile_template_uri", "enclosure_group_uri", "dynamic_allocation",
            // the BMC addresses of Ironic's drivers
            "redfish_address", "redfish_system_id", "ipmi_address", "ipmi_port", "ipmi_bridging", "ipmi_local_address",
            "ipmi_transit_channel", "ipmi_transit_address", "ipmi_target_channel", "ipmi_target_address",
            "drac_address", "ilo_address", "irmc_address", "ibmc_address");

    private HardwareAddresses() {
    }

    /** The hardware fields {@code driverInfo} sets (a creation's), in name order. */
    public static Set<String> named(Map<String, ?> driverInfo) {
        Set<String> named = new TreeSet<>(driverInfo.keySet());
        named.retainAll(FIELDS);
        return named;
    }

    /** The hardware fields (and {@link #APPLIED_PROFILE}) whose value differs from {@code before} to {@code after}. */
    public static Set<String> changed(Map<String, ?> before, Map<String, ?> after) {
        Set<String> changed = new LinkedHashSet<>();
        Set<String> watched = new TreeSet<>(FIELDS);
        watched.add(APPLIED_PROFILE);
        for (String field : watched) {
            if (before.containsKey(field) != after.containsKey(field) || !Objects.equals(before.get(field), after.get(field))) {
                changed.add(field);
            }
        }
        return changed;
    }

    /** Whether {@code who} may record the applied profile: the oneview-allocator's own principal, nobody else. */
    public static boolean mayRecordAppliedProfile(Principal who) {
        return who != null && who.isService() && ALLOCATOR.equals(who.user());
    }

    /** The answer to anyone else who writes {@link #APPLIED_PROFILE}: Ironic's words for an internal attribute. */
    public static String appliedProfileRefusal() {
        return "'/driver_info/" + APPLIED_PROFILE + "' is an internal attribute and can not be updated";
    }
}
