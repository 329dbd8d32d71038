package io.ironflow.teardown.api;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ironflow.teardown.actions.ActionLeases;
import io.ironflow.teardown.actions.NodeClaimed;
import io.ironflow.teardown.status.AirshipStatus;
import io.ironflow.teardown.status.StatusMessage;
import io.ironflow.teardown.status.StepFailure;
import io.ironflow.teardown.steps.DecommissionOptions;
import io.ironflow.teardown.steps.DesignRef;
import io.ironflow.teardown.steps.NodeSteps;
import io.ironflow.teardown.steps.Seconds;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.util.List;
import java.util.function.Function;

/**
 * The spec's Promenade teardown endpoints under {@code /api/v1.0}, synchronous and possibly long (a drain may take
 * its whole timeout), each answering an Airship status. Query parameters are checked before the node is looked
 * up, so a bad request is a 400 whether the node exists or not. A step claims its node while it runs: a node an
 * unfinished action or another direct step claims is a 409 (a second one would race it: drain, unlabel or delete
 * the Node under it), and an action asked for meanwhile is refused the same way. Decommission renews the claim
 * before each part, and stops when it lapsed and was taken over.
 */
@Path("/api/v1.0")
@Produces(MediaType.APPLICATION_JSON)
public class NodeStepResource {

    @Inject
    NodeSteps steps;

    @Inject
    ObjectMapper json;

    @Inject
    ActionLeases leases;

    @POST
    @Path("/nodes/{node}/drain")
    public AirshipStatus drain(@PathParam("node") String node, @QueryParam("timeout") String timeout,
            @QueryParam("grace-period") String gracePeriod) {
        long seconds = Seconds.parse("timeout", timeout, DecommissionOptions.DRAIN_TIMEOUT);
        long grace = Seconds.parse("grace-period", gracePeriod, DecommissionOptions.DRAIN_GRACE_PERIOD);
        DecommissionOptions.checkGrace(grace, seconds, "grace-period", "timeout");
        return claimed(node, "drain", claim -> steps.drain(node, seconds, grace));
    }

    @POST
    @Path("/nodes/{node}/clear-labels")
    public AirshipStatus clearLabels(@PathParam("node") String node, @QueryParam("timeout") String timeout) {
        long seconds = Seconds.parse("timeout", timeout, DecommissionOptions.CLEAR_LABELS_TIMEOUT);
        return claimed(node, "clear-labels", claim -> steps.clearLabels(node, seconds));
    }

    @POST
    @Path("/nodes/{node}/remove-etcd")
    @Consumes(MediaType.WILDCARD)
    public AirshipStatus removeEtcd(@PathParam("node") String node, @QueryParam("timeout") String timeout, String body) {
        long seconds = Seconds.parse("timeout", timeout, DecommissionOptions.REMOVE_ETCD_TIMEOUT);
        DesignRef design = designRef(body);
        return claimed(node, "remove-etcd", claim -> steps.removeEtcd(node, seconds, design));
    }

    @GET
    @Path("/etcd-cluster-health-statuses")
    public AirshipStatus etcdHealth(@QueryParam("design_ref") String designRef) {
        return steps.etcdHealth(DesignRef.ofHref(designRef, "MissingDesignRef"));
    }

    @POST
    @Path("/nodes/{node}/shutdown-kubelet")
    public AirshipStatus shutdownKubelet(@PathParam("node") String node) {
        return claimed(node, "shutdown-kubelet", claim -> steps.shutdownKubelet(node));
    }

    @POST
    @Path("/nodes/{node}/remove-from-cluster")
    public AirshipStatus removeFromCluster(@PathParam("node") String node) {
        return claimed(node, "remove-from-cluster", claim -> steps.removeFromCluster(node));
    }

    @POST
    @Path("/nodes/{node}/decommission")
    @Consumes(MediaType.WILDCARD)
    public AirshipStatus decommission(@PathParam("node") String node, @QueryParam("drain-node-timeout") String drainTimeout,
            @QueryParam("drain-node-grace-period") String gracePeriod, @QueryParam("clear-labels-timeout") String clearLabels,
            @QueryParam("remove-etcd-timeout") String removeEtcd, @QueryParam("etcd-ready-timeout") String etcdReady,
            String body) {
        DecommissionOptions options = DecommissionOptions.parse(drainTimeout, gracePeriod, clearLabels, removeEtcd, etcdReady);
        DesignRef design = designRef(body);
        return claimed(node, "decommission", claim -> steps.decommission(node, options, design, () -> stillHeld(claim, "decommission")));
    }

    /** Runs {@code step} holding the node's claim: 409 Conflict while an action or another direct step holds it. */
    private AirshipStatus claimed(String node, String step, Function<ActionLeases.NodeLease, AirshipStatus> run) {
        try (ActionLeases.NodeLease claim = leases.claimNode(node, step)) {
            return run.apply(claim);
        } catch (NodeClaimed e) {
            throw new StepFailure(409, "Conflict", e.getMessage(), List.of(StatusMessage.error(node, e.getMessage())));
        }
    }

    /**
     * Between a step's parts: renews the claim. One that lapsed and was taken over is a 409 (an action or another
     * step holds the node now); one that cannot be renewed, the database out of reach, a 503: no part starts on a
     * node this step cannot show it still holds.
     */
    private static void stillHeld(ActionLeases.NodeLease claim, String step) {
        boolean held;
        try {
            held = claim.renew();
        } catch (IllegalStateException e) {
            throw new StepFailure(503, "ServiceUnavailable", "the " + step + " step could not renew its claim on node "
                    + claim.node() + ": " + e.getMessage());
        }
        if (!held) {
            throw new StepFailure(409, "Conflict", "the " + step + " step's claim on node " + claim.node() + " lapsed"
                    + " (the database was out of reach for longer than the claim lasts) and the node was taken over");
        }
    }

    /** The design reference body, whatever content type it came with (clients send JSON or none at all). */
    private DesignRef designRef(String body) {
        if (body == null || body.isBlank()) {
            throw StepFailure.badRequest("the body must be the design reference {rel, href, type}");
        }
        try {
            return json.readValue(body, DesignRef.class).validated("BadRequest");
        } catch (JsonProcessingException e) {
            throw StepFailure.badRequest("the body is not a design reference: " + e.getOriginalMessage());
        }
    }
}
