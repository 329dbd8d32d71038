package io.ironflow.policy;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * THE table of access rules: Ironic's secure-RBAC policy defaults (ironic/common/policy.py, 2023.2 and later with
 * enforce_new_defaults), rule by rule, in oslo.policy's check-string language. The API and the conductor both
 * decide with it ({@link Policy}), so a request over HTTP and an intent published straight to Kafka meet the same
 * rules; an operator's policy file overrides any rule by name, as oslo.policy's does. docs/rbac.md is rendered
 * from this table by a test.
 *
 * <p>Roles: admin (implies member), member (implies reader), reader, service. Scope: system ({@code
 * system_scope:all}), or a project, whose rights on a node come from the node's owner or lessee field.
 */
public final class PolicyDefaults {

    /** One rule: Ironic's name, its default check string, what it guards. */
    public record Rule(String name, String check, String description) {
    }

    /** Ironic's base rule for the service role, as its defaults use it ({@code rule:service_role}). */
    public static final String SERVICE_ROLE = "service_role";

    public static final List<Rule> RULES = List.of(
            rule(SERVICE_ROLE,
                    "role:service and system_scope:all",
                    "The service role with system scope (Ironic: the service project's service role)"),
            rule("baremetal:node:create",
                    "(role:admin and system_scope:all) or (role:service and system_scope:all)",
                    "Create a node (POST /v1/nodes)"),
            rule("baremetal:node:delete",
                    "role:admin and system_scope:all",
                    "Delete a node"),
            rule("baremetal:node:get",
                    "((role:reader and system_scope:all) or (role:service and system_scope:all) or rule:service_role) or (role:reader and (project_id:%(node.owner)s or project_id:%(node.lessee)s)) or (role:service and project_id:%(node.owner)s)",
                    "Show a node; who fails it gets 404 for the node, as if it did not exist"),
            rule("baremetal:node:list",
                    "(role:reader) or (role:service)",
                    "List nodes: the caller's project sees the nodes it owns or leases"),
            rule("baremetal:node:list_all",
                    "(role:reader and system_scope:all) or (role:service and system_scope:all) or rule:service_role",
                    "List every node, whoever owns it"),
            rule("baremetal:node:get:driver_info",
                    "((role:reader and system_scope:all) or (role:service and system_scope:all) or rule:service_role) or (role:service and system_scope:all) or (role:reader and project_id:%(node.owner)s) or (role:service and project_id:%(node.owner)s)",
                    "See driver_info (otherwise redacted)"),
            rule("baremetal:node:get:driver_internal_info",
                    "((role:reader and system_scope:all) or (role:service and system_scope:all) or rule:service_role) or (role:service and system_scope:all) or (role:reader and project_id:%(node.owner)s) or (role:service and project_id:%(node.owner)s)",
                    "See driver_internal_info (otherwise redacted)"),
            rule("baremetal:node:get:last_error",
                    "((role:reader and system_scope:all) or (role:service and system_scope:all) or rule:service_role) or (role:service and system_scope:all) or (role:reader and project_id:%(node.owner)s) or (role:service and project_id:%(node.owner)s)",
                    "See last_error (otherwise redacted)"),
            rule("baremetal:node:get:reservation",
                    "((role:reader and system_scope:all) or (role:service and system_scope:all) or rule:service_role) or (role:service and system_scope:all) or (role:reader and project_id:%(node.owner)s) or (role:service and project_id:%(node.owner)s)",
                    "See reservation (otherwise redacted)"),
            rule("baremetal:node:get_states",
                    "((role:reader and system_scope:all) or (role:service and system_scope:all) or rule:service_role) or (role:reader and (project_id:%(node.owner)s or project_id:%(node.lessee)s)) or (role:service and project_id:%(node.owner)s)",
                    "Show a node's states"),
            rule("baremetal:node:update",
                    "((role:member and system_scope:all) or rule:service_role) or (role:member and (project_id:%(node.owner)s or project_id:%(node.lessee)s)) or (role:service and system_scope:all)",
                    "Update node fields that have no rule of their own"),
            rule("baremetal:node:update:driver_info",
                    "((role:member and system_scope:all) or rule:service_role) or (role:service and system_scope:all) or (role:member and project_id:%(node.owner)s) or (role:service and project_id:%(node.owner)s)",
                    "Update driver_info"),
            rule("baremetal:node:update:properties",
                    "((role:member and system_scope:all) or rule:service_role) or (role:service and system_scope:all) or (role:member and project_id:%(node.owner)s) or (role:service and project_id:%(node.owner)s)",
                    "Update properties"),
            rule("baremetal:node:update:chassis_uuid",
                    "role:admin and system_scope:all",
                    "Update chassis_uuid"),
            rule("baremetal:node:update:instance_uuid",
                    "((role:member and system_scope:all) or rule:service_role) or (role:service and system_scope:all) or (role:member and project_id:%(node.owner)s) or (role:service and project_id:%(node.owner)s)",
                    "Update instance_uuid"),
            rule("baremetal:node:update:lessee",
                    "((role:member and system_scope:all) or rule:service_role) or (role:service and system_scope:all) or (role:member and project_id:%(node.owner)s) or (role:service and project_id:%(node.owner)s)",
                    "Update lessee"),
            rule("baremetal:node:update:owner",
                    "(role:member and system_scope:all) or rule:service_role",
                    "Update owner"),
            rule("baremetal:node:update:driver_interfaces",
                    "((role:member and system_scope:all) or rule:service_role) or (role:service and system_scope:all) or (role:admin and project_id:%(node.owner)s) or (role:manager and project_id:%(node.owner)s) or (role:service and project_id:%(node.owner)s)",
                    "Update the driver and its *_interface fields"),
            rule("baremetal:node:update:network_data",
                    "((role:member and system_scope:all) or rule:service_role) or (role:service and system_scope:all) or (role:member and project_id:%(node.owner)s) or (role:service and project_id:%(node.owner)s)",
                    "Update network_data"),
            rule("baremetal:node:update:conductor_group",
                    "(role:member and system_scope:all) or rule:service_role",
                    "Update conductor_group"),
            rule("baremetal:node:update:name",
                    "((role:member and system_scope:all) or rule:service_role) or (role:service and system_scope:all) or (role:member and project_id:%(node.owner)s) or (role:service and project_id:%(node.owner)s)",
                    "Update name"),
            rule("baremetal:node:update:retired",
                    "((role:member and system_scope:all) or rule:service_role) or (role:service and system_scope:all) or (role:member and project_id:%(node.owner)s) or (role:service and project_id:%(node.owner)s)",
                    "Update retired and retired_reason"),
            rule("baremetal:node:update:shard",
                    "role:admin and system_scope:all",
                    "Update shard"),
            rule("baremetal:node:update_extra",
                    "((role:member and system_scope:all) or rule:service_role) or (role:member and (project_id:%(node.owner)s or project_id:%(node.lessee)s)) or (role:service and system_scope:all)",
                    "Update extra"),
            rule("baremetal:node:update_instance_info",
                    "((role:member and system_scope:all) or rule:service_role) or (role:service and system_scope:all) or (role:member and project_id:%(node.owner)s) or (role:admin and project_id:%(node.lessee)s) or (role:manager and project_id:%(node.lessee)s) or (role:service and project_id:%(node.owner)s)",
                    "Update instance_info"),
            rule("baremetal:node:disable_cleaning",
                    "role:admin and system_scope:all",
                    "Set automated_clean to false"),
            rule("baremetal:node:set_maintenance",
                    "((role:member and system_scope:all) or rule:service_role) or (role:service and system_scope:all) or (role:member and project_id:%(node.owner)s) or (role:admin and project_id:%(node.lessee)s) or (role:manager and project_id:%(node.lessee)s) or (role:service and project_id:%(node.owner)s)",
                    "Put a node in maintenance"),
            rule("baremetal:node:clear_maintenance",
                    "((role:member and system_scope:all) or rule:service_role) or (role:service and system_scope:all) or (role:member and project_id:%(node.owner)s) or (role:admin and project_id:%(node.lessee)s) or (role:manager and project_id:%(node.lessee)s) or (role:service and project_id:%(node.owner)s)",
                    "Take a node out of maintenance"),
            rule("baremetal:node:set_power_state",
                    "((role:member and system_scope:all) or rule:service_role) or (role:member and (project_id:%(node.owner)s or project_id:%(node.lessee)s)) or (role:service and system_scope:all)",
                    "Change a node's power state"),
            rule("baremetal:node:set_provision_state",
                    "((role:member and system_scope:all) or rule:service_role) or (role:service and system_scope:all) or (role:member and project_id:%(node.owner)s) or (role:admin and project_id:%(node.lessee)s) or (role:manager and project_id:%(node.lessee)s) or (role:service and project_id:%(node.owner)s)",
                    "Change a node's provision state"),
            rule("baremetal:node:set_boot_mode",
                    "((role:member and system_scope:all) or rule:service_role) or (role:member and (project_id:%(node.owner)s or project_id:%(node.lessee)s)) or (role:service and system_scope:all)",
                    "Set a node's boot mode"),
            rule("baremetal:node:set_secure_boot",
                    "((role:member and system_scope:all) or rule:service_role) or (role:member and (project_id:%(node.owner)s or project_id:%(node.lessee)s)) or (role:service and system_scope:all)",
                    "Turn a node's secure boot on or off"),
            rule("baremetal:node:validate",
                    "((role:member and system_scope:all) or rule:service_role) or (role:service and system_scope:all) or (role:member and project_id:%(node.owner)s) or (role:admin and project_id:%(node.lessee)s) or (role:manager and project_id:%(node.lessee)s) or (role:service and project_id:%(node.owner)s)",
                    "Validate a node's driver interfaces"),
            rule("baremetal:node:traits:list",
                    "((role:reader and system_scope:all) or (role:service and system_scope:all) or rule:service_role) or (role:reader and (project_id:%(node.owner)s or project_id:%(node.lessee)s)) or (role:service and project_id:%(node.owner)s)",
                    "List a node's traits"),
            rule("baremetal:node:traits:set",
                    "((role:member and system_scope:all) or rule:service_role) or (role:service and system_scope:all) or (role:admin and project_id:%(node.owner)s) or (role:manager and project_id:%(node.owner)s) or (role:service and project_id:%(node.owner)s)",
                    "Add or replace a node's traits"),
            rule("baremetal:node:traits:delete",
                    "((role:member and system_scope:all) or rule:service_role) or (role:service and system_scope:all) or (role:admin and project_id:%(node.owner)s) or (role:manager and project_id:%(node.owner)s) or (role:service and project_id:%(node.owner)s)",
                    "Remove a node's traits"),
            rule("baremetal:node:bios:get",
                    "((role:reader and system_scope:all) or (role:service and system_scope:all) or rule:service_role) or (role:reader and (project_id:%(node.owner)s or project_id:%(node.lessee)s)) or (role:service and project_id:%(node.owner)s)",
                    "Show a node's BIOS settings"),
            rule("baremetal:node:history:get",
                    "((role:reader and system_scope:all) or (role:service and system_scope:all) or rule:service_role) or (role:service and system_scope:all) or (role:reader and project_id:%(node.owner)s) or (role:service and project_id:%(node.owner)s)",
                    "Show a node's history"),
            rule("baremetal:node:vif:list",
                    "((role:reader and system_scope:all) or (role:service and system_scope:all) or rule:service_role) or (role:reader and (project_id:%(node.owner)s or project_id:%(node.lessee)s)) or (role:service and project_id:%(node.owner)s)",
                    "List a node's VIFs"),
            rule("baremetal:node:vif:attach",
                    "((role:member and system_scope:all) or rule:service_role) or (role:service and system_scope:all) or (role:member and project_id:%(node.owner)s) or (role:admin and project_id:%(node.lessee)s) or (role:manager and project_id:%(node.lessee)s) or (role:service and project_id:%(node.owner)s)",
                    "Attach a VIF to a node"),
            rule("baremetal:node:vif:detach",
                    "((role:member and system_scope:all) or rule:service_role) or (role:service and system_scope:all) or (role:member and project_id:%(node.owner)s) or (role:admin and project_id:%(node.lessee)s) or (role:manager and project_id:%(node.lessee)s) or (role:service and project_id:%(node.owner)s)",
                    "Detach a VIF from a node"),
            rule("baremetal:port:get",
                    "((role:reader and system_scope:all) or (role:service and system_scope:all) or rule:service_role) or (role:reader and (project_id:%(node.owner)s or project_id:%(node.lessee)s)) or (role:service and project_id:%(node.owner)s)",
                    "Show a port (of a node the caller may see)"),
            rule("baremetal:port:list",
                    "(role:reader) or (role:service)",
                    "List ports of nodes the caller's project owns or leases"),
            rule("baremetal:port:list_all",
                    "(role:reader and system_scope:all) or (role:service and system_scope:all) or rule:service_role",
                    "List every port"),
            rule("baremetal:port:create",
                    "(role:admin and system_scope:all) or (role:service and system_scope:all) or (role:admin and project_id:%(node.owner)s) or (role:manager and project_id:%(node.owner)s) or (role:service and project_id:%(node.owner)s)",
                    "Create a port"),
            rule("baremetal:port:update",
                    "((role:member and system_scope:all) or rule:service_role) or (role:service and system_scope:all) or (role:admin and project_id:%(node.owner)s) or (role:manager and project_id:%(node.owner)s) or (role:service and project_id:%(node.owner)s)",
                    "Update a port"),
            rule("baremetal:port:delete",
                    "(role:admin and system_scope:all) or (role:service and system_scope:all) or (role:admin and project_id:%(node.owner)s) or (role:manager and project_id:%(node.owner)s) or (role:service and project_id:%(node.owner)s)",
                    "Delete a port"),
            rule("baremetal:driver:get",
                    "(role:reader and system_scope:all) or (role:service and system_scope:all) or rule:service_role",
                    "List and show drivers"),
            rule("baremetal:driver:get_properties",
                    "(role:reader and system_scope:all) or (role:service and system_scope:all) or rule:service_role",
                    "Show a driver's properties"),
            rule("baremetal:shards:get",
                    "(role:reader and system_scope:all) or (role:service and system_scope:all) or rule:service_role",
                    "List shards"));

    private PolicyDefaults() {
    }

    /** The rules by name, in table order. */
    public static Map<String, String> checks() {
        Map<String, String> checks = new LinkedHashMap<>();
        RULES.forEach(rule -> checks.put(rule.name(), rule.check()));
        return checks;
    }

    private static Rule rule(String name, String check, String description) {
        return new Rule(name, check, description);
    }
}
