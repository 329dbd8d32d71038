package io.ironflow.teardown.actions;

import io.ironflow.teardown.revisions.Revisions;
import io.ironflow.teardown.revisions.SiteActionGuard;
import io.ironflow.teardown.status.StatusMessage;
import io.ironflow.teardown.status.StepFailure;
import io.ironflow.teardown.steps.DecommissionOptions;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.jboss.logging.Logger;

/**
 * Shipyard's create-action: the name and parameters checked (400), the pre-run validations (409), the steps
 * planned, the action stored with its nodes claimed (409 when one already has a running action, or when a running
 * action conflicts: a deploy_site beside any other action, Shipyard's concurrency check), then started.
 * <ul>
 * <li>{@code redeploy_server}: {@code target_nodes} (a list of node names, or Shipyard's comma-separated text),
 * {@code target-revision} (committed | successful-site-action (default) | last-site-action),
 * {@code preserve-local-storage} (true: the destroy erases only the OS disk), the decommission's timeouts
 * ({@code drain-node-timeout}, {@code drain-node-grace-period}, {@code clear-labels-timeout},
 * {@code remove-etcd-timeout}, {@code etcd-ready-timeout}: whole seconds, the spec's defaults when absent); steps
 * preflight, then decommission, destroy, remove-from-cluster per node. The revision target-revision names is pinned
 * at creation ({@code revision}); a caller's own {@code revision} is refused.</li>
 * <li>{@code deploy_site}: takes only {@code allow-intermediate-commits}; pins the committed revision, refuses
 * intermediate commits unless {@code allow-intermediate-commits=true} (logged); steps validate-site-design; tags the
 * revision at the end.</li>
 * </ul>
 * Any other parameter key is refused (400, naming it): a misspelt one would silently change what the action does.
 */
@ApplicationScoped
public class ActionRequests {

    public static final String REDEPLOY_SERVER = "redeploy_server";
    public static final String DEPLOY_SITE = "deploy_site";
    /** Every parameter redeploy_server takes (the spec's names); any other key is refused. */
    static final List<String> REDEPLOY_SERVER_PARAMETERS = Stream.concat(Stream.of("target_nodes", "target-revision",
            "preserve-local-storage", "allow-intermediate-commits"), DecommissionOptions.NAMES.stream()).toList();
    /** Every parameter deploy_site takes: it works on the whole site, so target_nodes is none of them. */
    static final List<String> DEPLOY_SITE_PARAMETERS = List.of("allow-intermediate-commits");
    /** The parameter holding the design revision the action pinned at creation (null: none existed). */
    public static final String REVISION = "revision";
    private static final Logger LOG = Logger.getLogger(ActionRequests.class);

    @Inject
    ActionStore store;

    @Inject
    Revisions revisions;

    @Inject
    ActionRunner runner;

    /** Creates and starts the action; answers its id. */
    public String create(Object name, Object parameters, String user, String contextMarker) {
        if (!(name instanceof String actionName) || !(actionName.equals(REDEPLOY_SERVER) || actionName.equals(DEPLOY_SITE))) {
            throw StepFailure.badRequest("invalid action name " + name + ": supported are " + REDEPLOY_SERVER + " and " + DEPLOY_SITE);
        }
        if (parameters != null && !(parameters instanceof Map)) {
            throw StepFailure.badRequest("parameters must be an object");
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> params = parameters == null ? new LinkedHashMap<>() : new LinkedHashMap<>((Map<String, Object>) parameters);
        if (params.containsKey(REVISION)) { // the orchestrator pins it; a caller's would bypass the preflight's check
            throw StepFailure.badRequest(REVISION + " is not a parameter: the action pins its design revision itself (target-revision chooses which)");
        }
        List<String> known = actionName.equals(REDEPLOY_SERVER) ? REDEPLOY_SERVER_PARAMETERS : DEPLOY_SITE_PARAMETERS;
        for (String key : params.keySet()) {
            // A misspelt key ignored would change what the action does: preserve_local_storage would wipe every disk.
            if (!known.contains(key)) {
                throw StepFailure.badRequest("unknown parameter " + (key.length() > 64 ? key.substring(0, 64) + "..." : key)
                        + " for " + actionName + ": known are " + String.join(", ", known));
            }
        }
        String id = Ulid.next();
        List<ActionStore.PlannedStep> steps = new ArrayList<>();
        List<String> nodes = List.of();
        if (actionName.equals(REDEPLOY_SERVER)) {
            nodes = targetNodes(params);
            if (nodes.isEmpty()) {
                throw StepFailure.badRequest("redeploy_server needs target_nodes, a list of node names");
            }
            String version = targetRevision(params);
            flag(params, "preserve-local-storage");
            DecommissionOptions.fromParameters(params); // checked now: a bad timeout is a 400, not a failed step
            flag(params, "allow-intermediate-commits");
            // Pinned now, as Shipyard fixes the revision when the action is created: a commit or site action during
            // the teardown does not move it. Null when no revision is `version`: the preflight fails on that.
            params.put(REVISION, revisions.latest(version).orElse(null));
            steps.add(new ActionStore.PlannedStep(null, ActionSteps.PREFLIGHT));
            for (String node : nodes) {
                steps.add(new ActionStore.PlannedStep(node, ActionSteps.DECOMMISSION));
                steps.add(new ActionStore.PlannedStep(node, ActionSteps.DESTROY));
                steps.add(new ActionStore.PlannedStep(node, ActionSteps.REMOVE_FROM_CLUSTER));
            }
        } else {
            int committed = revisions.latest(Revisions.COMMITTED).orElseThrow(() -> conflict("there is no committed revision to deploy"));
            int last = revisions.latest(Revisions.LAST_SITE_ACTION).orElse(0);
            String refusal = SiteActionGuard.refusal(committed, last, revisions.untaggedBetween(last, committed));
            if (refusal != null) {
                if (!flag(params, "allow-intermediate-commits")) {
                    throw conflict(refusal);
                }
                LOG.infof("action %s: allow-intermediate-commits=true, the intermediate committed revisions check is skipped (%s)", id, refusal);
            }
            params.put(REVISION, committed);
            steps.add(new ActionStore.PlannedStep(null, ActionSteps.VALIDATE_SITE_DESIGN));
        }
        try {
            store.create(id, actionName, params, user, contextMarker, steps, nodes);
        } catch (NodeClaimed | ActionConflict e) {
            throw conflict(e.getMessage());
        }
        runner.submit(id);
        return id;
    }

    private static StepFailure conflict(String message) {
        return new StepFailure(409, "Conflict", message, List.of(StatusMessage.error(null, message)));
    }

    /**
     * What Kubernetes accepts as a Node's name. Every step works on the node under it, so another name can never
     * be torn down; refused up front, it cannot reach a step's API path or grow an event past Kafka's limit.
     */
    private static final Pattern KUBERNETES_NODE_NAME = Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");

    static List<String> targetNodes(Map<String, Object> params) {
        Object value = params.get("target_nodes");
        List<String> nodes = new ArrayList<>();
        if (value instanceof String text) {
            for (String node : text.split(",")) {
                if (!node.isBlank()) {
                    nodes.add(node.trim());
                }
            }
        } else if (value instanceof List<?> list) {
            for (Object node : list) {
                if (!(node instanceof String s) || s.isBlank()) {
                    throw StepFailure.badRequest("target_nodes must hold node names, not " + node);
                }
                nodes.add(s);
            }
        } else if (value != null) {
            throw StepFailure.badRequest("target_nodes must be a list of node names");
        }
        for (String node : nodes) {
            if (node.length() > 253 || !KUBERNETES_NODE_NAME.matcher(node).matches()) {
                throw StepFailure.badRequest("target_nodes: " + (node.length() > 64 ? node.substring(0, 64) + "..." : node)
                        + " is not a Kubernetes node name (lower-case RFC 1123 subdomain, at most 253 characters)");
            }
        }
        if (nodes.stream().distinct().count() != nodes.size()) {
            throw StepFailure.badRequest("target_nodes names a node twice");
        }
        return nodes;
    }

    static String targetRevision(Map<String, Object> params) {
        Object value = params.getOrDefault("target-revision", Revisions.SUCCESSFUL_SITE_ACTION);
        if (!(value instanceof String s) || !List.of(Revisions.COMMITTED, Revisions.SUCCESSFUL_SITE_ACTION, Revisions.LAST_SITE_ACTION).contains(s)) {
            throw StepFailure.badRequest("target-revision must be committed, successful-site-action or last-site-action, not " + value);
        }
        return s;
    }

    static boolean flag(Map<String, Object> params, String name) {
        Object value = params.get(name);
        if (value == null) {
            return false;
        }
        if (value instanceof Boolean b) {
            return b;
        }
        if (value instanceof String s && (s.equalsIgnoreCase("true") || s.equalsIgnoreCase("false"))) {
            return Boolean.parseBoolean(s);
        }
        throw StepFailure.badRequest(name + " must be true or false, not " + value);
    }

    /** pause, unpause or stop: true when accepted (202), false when the action's state does not allow it (409). */
    public boolean control(String id, String verb) {
        Action action = store.find(id);
        if (action == null) {
            throw StepFailure.notFound("action " + id + " does not exist");
        }
        boolean finished = Lifecycle.finished(action.lifecycle());
        boolean paused = Lifecycle.PAUSED.equals(action.lifecycle()) || action.pauseRequested();
        switch (verb) {
            case "pause" -> {
                return !finished && !paused && !action.stopRequested() && store.request(id, "pause_requested", true);
            }
            case "unpause" -> {
                if (!store.unpause(id)) {
                    return false;
                }
                runner.submit(id); // a runner still on its way out of a pause leaves it to the next rescan
                return true;
            }
            case "stop" -> {
                if (finished || action.stopRequested() || !store.request(id, "stop_requested", true)) {
                    return false;
                }
                // A paused action has no runner: this one records the stop. If the pausing run is still on its way
                // out, this is a no-op, and the rescan (which takes Paused actions with a stop) ends it instead.
                runner.submit(id);
                return true;
            }
            default -> throw StepFailure.notFound("no such control: " + verb + " (pause, unpause, stop)");
        }
    }
}
