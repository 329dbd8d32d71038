package io.ironflow.oneview.migration;

import com.fasterxml.jackson.databind.JsonNode;
import io.ironflow.oneview.checks.OneViewNode;
import io.ironflow.oneview.client.OneViewClient;
import io.ironflow.oneview.messaging.NodeIntents;
import io.ironflow.events.UpdateNode;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.List;

/**
 * The spec's migration from pre-allocation to dynamic allocation, for every oneview node with
 * {@code driver_info.dynamic_allocation = false}: an active node keeps its profile and gets
 * {@code applied_server_profile_uri} (it becomes Ironflow's); an available node has its profile removed (power off,
 * delete), as it is not in use; both then get {@code dynamic_allocation = true}. Nodes in other states are left for
 * a later run. The plan is computed from OneView's current state; a dry run only returns it. Node changes are
 * intents.
 */
@ApplicationScoped
public class PreAllocationMigration {

    /** One node's step: what will be (or was) done, and why. */
    public record Step(String node, String provisionState, String serverHardwareUri, String profile, String action,
            String outcome) {
    }

    private final NodeStateReader nodes;
    private final OneViewClient oneView;
    private final NodeIntents intents;

    PreAllocationMigration(NodeStateReader nodes, OneViewClient oneView, NodeIntents intents) {
        this.nodes = nodes;
        this.oneView = oneView;
        this.intents = intents;
    }

    public List<Step> run(boolean dryRun) {
        List<Step> steps = new ArrayList<>();
        for (OneViewNode node : nodes.oneViewNodes()) {
            if (node.dynamic()) {
                continue;
            }
            steps.add(migrate(node, dryRun));
        }
        return steps;
    }

    private Step migrate(OneViewNode node, boolean dryRun) {
        String hardware = node.serverHardwareUri();
        if (hardware == null) {
            return new Step(node.uuid(), node.provisionState(), null, null, "skip", "no driver_info.server_hardware_uri");
        }
        try {
            JsonNode sh = oneView.serverHardware(hardware);
            String profile = sh.path("serverProfileUri").isTextual() ? sh.path("serverProfileUri").asText() : null;
            String outcome = dryRun ? "planned" : "done";
            switch (node.provisionState()) {
                case "active":
                    if (!dryRun) {
                        intents.send(node.uuid(), new UpdateNode(profile == null
                                ? "[{\"op\":\"add\",\"path\":\"/driver_info/dynamic_allocation\",\"value\":true}]"
                                : "[{\"op\":\"add\",\"path\":\"/driver_info/applied_server_profile_uri\",\"value\":\"" + profile
                                        + "\"},{\"op\":\"add\",\"path\":\"/driver_info/dynamic_allocation\",\"value\":true}]"));
                    }
                    return new Step(node.uuid(), "active", hardware, profile,
                            profile == null ? "set dynamic_allocation" : "record applied_server_profile_uri, set dynamic_allocation",
                            outcome);
                case "available":
                    if (!dryRun) {
                        if (profile != null) {
                            oneView.powerOff(hardware, null);
                            oneView.deleteProfile(profile, null);
                        }
                        intents.send(node.uuid(), new UpdateNode(
                                "[{\"op\":\"add\",\"path\":\"/driver_info/dynamic_allocation\",\"value\":true}]"));
                    }
                    return new Step(node.uuid(), "available", hardware, profile,
                            profile == null ? "set dynamic_allocation" : "remove the server profile, set dynamic_allocation",
                            outcome);
                default:
                    return new Step(node.uuid(), node.provisionState(), hardware, profile, "skip",
                            "only active and available nodes are migrated; run again once it is");
            }
        } catch (RuntimeException e) {
            return new Step(node.uuid(), node.provisionState(), hardware, null, "skip", "OneView: " + e.getMessage());
        }
    }
}
