package io.ironflow.teardown.actions;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLParser;
import io.ironflow.teardown.ironflow.ConductorDestroy;
import io.ironflow.teardown.ironflow.IronflowNodes;
import io.ironflow.teardown.kube.ClusterNodes;
import io.ironflow.teardown.revisions.Revisions;
import io.ironflow.teardown.status.AirshipStatus;
import io.ironflow.teardown.status.StatusMessage;
import io.ironflow.teardown.status.StepFailure;
import io.ironflow.teardown.steps.DecommissionOptions;
import io.ironflow.teardown.steps.DesignRef;
import io.ironflow.teardown.steps.NodeSteps;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * What each step of an action does. Every step is idempotent, so a step interrupted by a restart simply runs
 * again: the preflight checks again, decommission's parts find their work done, the destroy's intents carry the
 * same ids, and a Node already gone counts as removed.
 */
@ApplicationScoped
public class ActionSteps {

    public static final String PREFLIGHT = "preflight";
    public static final String DECOMMISSION = "decommission";
    public static final String DESTROY = "destroy";
    public static final String REMOVE_FROM_CLUSTER = "remove-from-cluster";
    public static final String VALIDATE_SITE_DESIGN = "validate-site-design";

    @Inject
    NodeSteps nodeSteps;

    @Inject
    ClusterNodes cluster;

    @Inject
    IronflowNodes ironflow;

    @Inject
    ConductorDestroy destroy;

    @Inject
    Revisions revisions;

    @ConfigProperty(name = "quarkus.http.port")
    int port;

    /** Runs {@code step}; {@code stillHeld} throws once the action's lease is gone (checked between a step's parts). */
    public AirshipStatus run(Action action, Action.Step step, Runnable stillHeld) {
        return switch (step.step()) {
            case PREFLIGHT -> preflight(action);
            case DECOMMISSION -> nodeSteps.decommission(step.node(), DecommissionOptions.fromParameters(action.parameters()),
                    designRef(action), stillHeld);
            case DESTROY -> AirshipStatus.success("node " + step.node() + " destroyed", destroy.destroy(action.id(), step.node(),
                    ActionRequests.flag(action.parameters(), "preserve-local-storage")));
            case REMOVE_FROM_CLUSTER -> removeFromCluster(step.node());
            case VALIDATE_SITE_DESIGN -> validateSiteDesign(action);
            default -> throw new StepFailure(500, "UnknownStep", "no such step: " + step.step());
        };
    }

    /**
     * The revision the action works from: the one it pinned at creation (null when none existed then), never looked
     * up again. Only an action stored before revisions were pinned has none and looks its target-revision up.
     */
    public Integer revision(Action action) {
        if (action.parameters().containsKey(ActionRequests.REVISION)) {
            return action.parameters().get(ActionRequests.REVISION) instanceof Number n ? n.intValue() : null;
        }
        return revisions.latest(ActionRequests.targetRevision(action.parameters())).orElse(null);
    }

    private AirshipStatus preflight(Action action) {
        List<StatusMessage> problems = new ArrayList<>();
        for (String node : action.nodes()) {
            try {
                if (ironflow.find(node).isEmpty()) {
                    problems.add(StatusMessage.error(node, "Ironflow does not know node " + node));
                }
            } catch (IllegalStateException e) {
                problems.add(StatusMessage.error(node, e.getMessage()));
            }
            try {
                cluster.require(node, "PreflightError");
            } catch (StepFailure e) {
                problems.add(StatusMessage.error(node, e.status().message()));
            }
        }
        String version = ActionRequests.targetRevision(action.parameters());
        Integer revision = revision(action);
        if (revision == null) {
            problems.add(StatusMessage.error(null, "missing precondition: no revision was " + version + " when the action was created"));
        }
        if (!problems.isEmpty()) {
            throw new StepFailure(412, "PreconditionFailed", problems.get(0).message(), problems);
        }
        return AirshipStatus.success("preflight passed; design revision " + revision + " (" + version + ")", List.of());
    }

    private DesignRef designRef(Action action) {
        Integer revision = revision(action);
        return new DesignRef("design", "deckhand+http://127.0.0.1:" + port + "/api/v1.0/revisions/" + revision
                + "/rendered-documents", "application/x-yaml");
    }

    private AirshipStatus removeFromCluster(String node) {
        try {
            return nodeSteps.removeFromCluster(node);
        } catch (StepFailure e) {
            if (e.status().code() == 404) {
                return AirshipStatus.success("node " + node + " is no longer in the Kubernetes cluster", List.of());
            }
            throw e;
        }
    }

    /** Every collection of the action's revision must be well-formed YAML. */
    private AirshipStatus validateSiteDesign(Action action) {
        Integer revision = revision(action);
        if (revision == null) {
            throw new StepFailure(412, "PreconditionFailed", "missing precondition: the action names no revision");
        }
        Map<String, String> documents = revisions.documentsAt(revision);
        List<StatusMessage> errors = new ArrayList<>();
        ObjectMapper yaml = new ObjectMapper(new YAMLFactory());
        documents.forEach((collection, text) -> {
            try (YAMLParser parser = new YAMLFactory().createParser(text)) {
                yaml.readValues(parser, Object.class).readAll();
            } catch (IOException | RuntimeException e) {
                errors.add(StatusMessage.error(collection, "not valid YAML: " + e.getMessage()));
            }
        });
        if (!errors.isEmpty()) {
            throw new StepFailure(400, "InvalidSiteDesign", "revision " + revision + " does not validate", errors);
        }
        return AirshipStatus.success("revision " + revision + " validates (" + documents.size() + " collections)", List.of());
    }
}
