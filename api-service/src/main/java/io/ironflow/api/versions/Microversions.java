package io.ironflow.api.versions;

import static java.util.Map.entry;

import io.ironflow.api.errors.ApiError;
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
            entry("lessee", 65),
            entry("network_data", 66),
            entry("boot_mode", 75),
            entry("secure_boot", 75),
            entry("shard", 82));

    /** Port fields by the version that introduced them. */
    private static final Map<String, Integer> PORT_FIELDS = Map.ofEntries(
            entry("internal_info", 18),
            entry("local_link_connection", 19),
            entry("pxe_enabled", 19),
            entry("portgroup_uuid", 24),
            entry("physical_network", 34),
            entry("is_smartnic", 53));

    /** Portgroup fields newer than portgroups themselves (1.23). */
    private static final Map<String, Integer> PORTGROUP_FIELDS = Map.ofEntries(
            entry("mode", 26),
            entry("properties", 26));

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
            entry("lessee", 65),
            entry("shard", 82),
            entry("sharded", 82));

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

    /**
     * Endpoints and parameters newer than 1.1 outside the node document. A sub-resource asked for below its
     * version is 404, as Ironic's controllers answer (the resource does not exist at that version); a parameter
     * or a state change below its version is 406 (the config drive's forms are 400, as Ironic's
     * check_allow_configdrive answers).
     */
    private static final Map<String, Integer> FEATURES = Map.ofEntries(
            entry("ports of a node", 1),
            entry("portgroups", 23),
            entry("portgroups of a node", 24),
            entry("ports of a portgroup", 24),
            entry("vifs", 28),
            entry("traits", 37),
            entry("bios", 40),
            entry("bios registry fields", 74),
            entry("power timeout", 27),
            entry("the parameter \"reset_interfaces\"", 45),
            entry("configdrive on rebuild", 35),
            entry("configdrive as a JSON object", 56),
            entry("configdrive vendor_data", 59),
            entry("boot_mode", 75),
            entry("secure_boot", 75),
            entry("driver fields", 77),
            entry("history", 78),
            entry("inventory", 81),
            entry("shards", 82),
            entry("ports by shard", 82));

    /** Power targets: the soft ones came with 1.27. */
    private static final Map<String, Integer> POWER_TARGETS = Map.of("soft power off", 27, "soft rebooting", 27);

    private Microversions() {
    }

    /** Whether a response at {@code version} shows the node field {@code field}. */
    public static boolean shows(String field, ApiVersion version) {
        return version.atLeast(FIELDS.getOrDefault(field, 1));
    }

    /** Whether a response at {@code version} shows the port field {@code field}. */
    public static boolean showsPortField(String field, ApiVersion version) {
        return version.atLeast(PORT_FIELDS.getOrDefault(field, 1));
    }

    /** A port body that writes {@code field} needs the version that introduced it. */
    public static void requirePortField(String field, ApiVersion version) {
        require("the port field \"" + field + "\"", PORT_FIELDS.getOrDefault(field, 1), version);
    }

    /** Whether a response at {@code version} shows the portgroup field {@code field}. */
    public static boolean showsPortgroupField(String field, ApiVersion version) {
        return version.atLeast(PORTGROUP_FIELDS.getOrDefault(field, 23));
    }

    /** A portgroup body that writes {@code field} needs the version that introduced it (406, as Ironic). */
    public static void requirePortgroupField(String field, ApiVersion version) {
        require("the portgroup field \"" + field + "\"", PORTGROUP_FIELDS.getOrDefault(field, 23), version);
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

    /** A sub-resource ({@link #FEATURES}) at a version older than it: 404, as Ironic. */
    public static void requireResource(String feature, ApiVersion version, String path) {
        if (!version.atLeast(FEATURES.get(feature))) {
            throw ApiError.notFound("The resource could not be found: " + path + " needs API version 1."
                    + FEATURES.get(feature) + " or later; the request asked for " + version + ".");
        }
    }

    /** A parameter or state change ({@link #FEATURES}) at a version older than it: 406. */
    public static void requireFeature(String feature, ApiVersion version) {
        require(feature, FEATURES.get(feature), version);
    }

    public static boolean allows(String feature, ApiVersion version) {
        return version.atLeast(FEATURES.get(feature));
    }

    /** The version that brought a list parameter of GET /v1/nodes, for the OpenAPI document. */
    public static int sinceListParameter(String parameter) {
        return LIST_PARAMETERS.getOrDefault(parameter, 1);
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
