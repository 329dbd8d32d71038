package io.ironflow.policy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ironflow.events.AttachVif;
import io.ironflow.events.ChangePowerState;
import io.ironflow.events.ChangeTraits;
import io.ironflow.events.CreateNode;
import io.ironflow.events.CreatePort;
import io.ironflow.events.CreatePortgroup;
import io.ironflow.events.DeleteNode;
import io.ironflow.events.DeletePort;
import io.ironflow.events.DeletePortgroup;
import io.ironflow.events.DetachVif;
import io.ironflow.events.IntentPrincipal;
import io.ironflow.events.ObserveServerHardware;
import io.ironflow.events.ProvisionAction;
import io.ironflow.events.SetBootMode;
import io.ironflow.events.SetMaintenance;
import io.ironflow.events.SetSecureBoot;
import io.ironflow.events.UpdateNode;
import io.ironflow.events.UpdatePort;
import io.ironflow.events.UpdatePortgroup;
import io.ironflow.events.ValidateNode;
import io.ironflow.schemas.OsloBooleans;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Which policy rules an intent's command needs, the same for the API (before it sends) and the conductor (before
 * it applies): one rule per verb, and for a node PATCH Ironic's per-field rules
 * (ironic/api/controllers/v1/node.py, the update policy checks). Also the principal's Avro form both sides share.
 */
public final class IntentRules {

    private static final ObjectMapper JSON = new ObjectMapper();

    private IntentRules() {
    }

    /** The rules {@code command} needs; a command this table does not know needs a rule nobody has. */
    public static Set<String> required(Object command) {
        if (command instanceof CreateNode c) {
            return creationRules(c.getDriverInfo());
        } else if (command instanceof DeleteNode) {
            return Set.of("baremetal:node:delete");
        } else if (command instanceof UpdateNode c) {
            return patchRules(c.getPatch());
        } else if (command instanceof ProvisionAction) {
            return Set.of("baremetal:node:set_provision_state");
        } else if (command instanceof ChangePowerState) {
            return Set.of("baremetal:node:set_power_state");
        } else if (command instanceof SetMaintenance c) {
            return Set.of(c.getMaintenance() ? "baremetal:node:set_maintenance" : "baremetal:node:clear_maintenance");
        } else if (command instanceof ValidateNode) {
            return Set.of("baremetal:node:validate");
        } else if (command instanceof SetBootMode) {
            return Set.of("baremetal:node:set_boot_mode");
        } else if (command instanceof SetSecureBoot) {
            return Set.of("baremetal:node:set_secure_boot");
        } else if (command instanceof ChangeTraits c) {
            return Set.of("remove".equals(c.getOperation()) ? "baremetal:node:traits:delete" : "baremetal:node:traits:set");
        } else if (command instanceof CreatePort) {
            return Set.of("baremetal:port:create");
        } else if (command instanceof UpdatePort) {
            return Set.of("baremetal:port:update");
        } else if (command instanceof DeletePort) {
            return Set.of("baremetal:port:delete");
        } else if (command instanceof CreatePortgroup) {
            return Set.of("baremetal:portgroup:create");
        } else if (command instanceof UpdatePortgroup) {
            return Set.of("baremetal:portgroup:update");
        } else if (command instanceof DeletePortgroup) {
            return Set.of("baremetal:portgroup:delete");
        } else if (command instanceof ObserveServerHardware) {
            return Set.of("ironflow:node:observe_server_hardware");
        } else if (command instanceof AttachVif) {
            return Set.of("baremetal:node:vif:attach");
        } else if (command instanceof DetachVif) {
            return Set.of("baremetal:node:vif:detach");
        }
        return Set.of("unknown command " + command.getClass().getSimpleName());
    }

    /** Ironic's node PATCH checks: a field rule per path, and the generic update rule for the rest. */
    static Set<String> patchRules(String patch) {
        Set<String> rules = new LinkedHashSet<>();
        boolean generic = false;
        JsonNode ops;
        try {
            ops = JSON.readTree(patch);
        } catch (Exception e) {
            ops = null; // malformed: the generic rule decides; the conductor then refuses the patch itself
        }
        if (ops != null && ops.isArray()) {
            for (JsonNode op : ops) {
                String path = op.path("path").asText("");
                String rule = fieldRule(path, op.path("value"));
                if (addressesHardware(path)) {
                    rules.add(HardwareAddresses.RULE);
                }
                if (rule == null) {
                    generic = true;
                } else {
                    rules.add(rule);
                }
            }
        }
        if (generic || rules.isEmpty()) {
            rules.add("baremetal:node:update");
        }
        return rules;
    }

    /** A creation's rules: node:create, and the hardware rule when its driver_info names hardware. */
    private static Set<String> creationRules(String driverInfo) {
        Set<String> rules = new LinkedHashSet<>(List.of("baremetal:node:create"));
        try {
            JsonNode info = JSON.readTree(driverInfo == null ? "{}" : driverInfo);
            info.fieldNames().forEachRemaining(field -> {
                if (HardwareAddresses.FIELDS.contains(field)) {
                    rules.add(HardwareAddresses.RULE);
                }
            });
        } catch (Exception e) {
            // malformed: the conductor refuses the driver_info itself
        }
        return rules;
    }

    /**
     * Whether {@code path} is one hardware field of driver_info (/driver_info/server_hardware_uri). A whole
     * driver_info replaced is judged by the conductor, which sees what it changes.
     */
    private static boolean addressesHardware(String path) {
        String[] parts = path.split("/", -1);
        return parts.length == 3 && parts[1].equals("driver_info")
                && HardwareAddresses.FIELDS.contains(parts[2].replace("~1", "/").replace("~0", "~"));
    }

    private static String fieldRule(String path, JsonNode value) {
        String field = path.startsWith("/") ? path.substring(1).split("/", 2)[0] : path;
        // As Ironic's strutils.bool_from_string(value) is False: "false", "0", "no" or 0 turn cleaning off as much
        // as false does, and the conductor stores them as false.
        if (field.equals("automated_clean") && value.isValueNode()
                && OsloBooleans.parse(value.asText()).filter(on -> !on).isPresent()) {
            return "baremetal:node:disable_cleaning";
        }
        if (field.equals("driver") || field.endsWith("_interface")) {
            return "baremetal:node:update:driver_interfaces";
        }
        return switch (field) {
            case "instance_info" -> "baremetal:node:update_instance_info";
            case "extra" -> "baremetal:node:update_extra";
            case "driver_info" -> "baremetal:node:update:driver_info";
            case "properties" -> "baremetal:node:update:properties";
            case "chassis_uuid" -> "baremetal:node:update:chassis_uuid";
            case "instance_uuid" -> "baremetal:node:update:instance_uuid";
            case "lessee" -> "baremetal:node:update:lessee";
            case "owner" -> "baremetal:node:update:owner";
            case "network_data" -> "baremetal:node:update:network_data";
            case "conductor_group" -> "baremetal:node:update:conductor_group";
            case "name" -> "baremetal:node:update:name";
            case "retired", "retired_reason" -> "baremetal:node:update:retired";
            case "shard" -> "baremetal:node:update:shard";
            default -> null;
        };
    }

    /** The principal as an intent carries it. */
    public static IntentPrincipal toAvro(Principal who) {
        return IntentPrincipal.newBuilder().setUser(who.user()).setProject(who.project())
                .setRoles(List.copyOf(who.roles())).setSystemScope(who.systemScope()).build();
    }

    /** The principal an intent carries; null when its producer sent none. */
    public static Principal fromAvro(IntentPrincipal principal) {
        return principal == null ? null : new Principal(principal.getUser(), principal.getProject(),
                Set.copyOf(principal.getRoles()), principal.getSystemScope());
    }
}
