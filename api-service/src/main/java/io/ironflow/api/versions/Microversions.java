package io.ironflow.api.versions;

import static java.util.Map.entry;

import java.util.Map;

/**
 * Which microversion brought each node field, list parameter and provision verb, as Ironic's
 * api/controllers/v1/utils.py gates them. Older requests do not see newer fields, and using a newer field,
 * parameter or verb is answered 406, as Ironic does. Anything not listed exists since 1.1.
 */
public final class Microversions {

    /** Node fields by the version that introduced them. */
    private static final Map<String, Integer> FIELDS = Map.ofEntries(
            entry("driver_internal_info", 3),
            entry("name", 5),
            entry("inspection_started_at", 6),
            entry("inspection_finished_at", 6),
            entry("clean_step", 7),
            entry("raid_config", 12),
            entry("target_raid_config", 12),
            entry("network_interface", 20),
            entry("resource_class", 21),
            entry("boot_interface", 31),
            entry("console_interface", 31),
            entry("deploy_interface", 31),
            entry("inspect_interface", 31),
            entry("management_interface", 31),
            entry("power_interface", 31),
            entry("raid_interface", 31),
            entry("vendor_interface", 31),
            entry("storage_interface", 33),
            entry("traits", 37),
            entry("rescue_interface", 38),
            entry("bios_interface", 40),
            entry("fault", 42),
            entry("deploy_step", 44),
            entry("conductor_group", 46),
            entry("automated_clean", 47),
            entry("protected", 48),
            entry("protected_reason", 48),
            entry("conductor", 49),
            entry("owner", 50),
            entry("description", 51),
            entry("allocation_uuid", 52),
            entry("retired", 61),
            entry("retired_reason", 61),
            entry("lessee", 65));

    /** Query parameters of GET /v1/nodes by the version that introduced them. */
    private static final Map<String, Integer> LIST_PARAMETERS = Map.ofEntries(
            entry("fields", 8),
            entry("provision_state", 9),
            entry("driver", 16),
            entry("resource_class", 21),
            entry("fault", 42),
            entry("detail", 43),
            entry("conductor_group", 46),
            entry("owner", 50),
            entry("description_contains", 51),
            entry("retired", 61),
            entry("lessee", 65));

    /** Provision targets by the version that introduced them (Ironic's MIN_VERB_VERSIONS). */
    private static final Map<String, Integer> VERBS = Map.ofEntries(
            entry("manage", 4),
            entry("provide", 4),
            entry("inspect", 6),
            entry("abort", 13),
            entry("clean", 15),
            entry("adopt", 17),
            entry("rescue", 38),
            entry("unrescue", 38),
            entry("deploy", 73),
            entry("undeploy", 73));

    /** Fields of the provision state change newer than the verbs that use them. */
    private static final Map<String, Integer> PROVISION_FIELDS = Map.of("disable_ramdisk", 70);

    /** Power targets: the soft ones came with 1.27. */
    private static final Map<String, Integer> POWER_TARGETS = Map.of("soft power off", 27, "soft rebooting", 27);

    private Microversions() {
    }

    /** Whether a response at {@code version} shows the node field {@code field}. */
    public static boolean shows(String field, ApiVersion version) {
        return version.atLeast(FIELDS.getOrDefault(field, 1));
    }

    /** A request body that writes {@code field} (POST, PATCH) needs the version that introduced it. */
    public static void requireField(String field, ApiVersion version) {
        require("the field \"" + field + "\"", FIELDS.getOrDefault(field, 1), version);
    }

    public static void requireListParameter(String parameter, ApiVersion version) {
        require("the parameter \"" + parameter + "\"", LIST_PARAMETERS.getOrDefault(parameter, 1), version);
    }

    public static void requireVerb(String target, ApiVersion version) {
        require("the provision target \"" + target + "\"", VERBS.getOrDefault(target, 1), version);
    }

    public static void requireProvisionField(String field, ApiVersion version) {
        require("the field \"" + field + "\"", PROVISION_FIELDS.getOrDefault(field, 1), version);
    }

    public static void requirePowerTarget(String target, ApiVersion version) {
        require("the power target \"" + target + "\"", POWER_TARGETS.getOrDefault(target, 1), version);
    }

    /** The version that brought a node field, for the compatibility table. */
    public static int since(String field) {
        return FIELDS.getOrDefault(field, 1);
    }

    private static void require(String what, int since, ApiVersion version) {
        if (!version.atLeast(since)) {
            throw ApiVersion.notAcceptable("Request not acceptable: " + what + " needs API version 1." + since
                    + " or later; the request asked for " + version + ".");
        }
    }
}
