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
import java.util.function.Supplier;

/**
 * The spec's Promenade teardown endpoints under {@code /api/v1.0}, synchronous and possibly long (a drain may take
 * its whole timeout), each answering an Airship status. Query parameters are checked before the node is looked
 * up, so a bad request is a 400 whether the node exists or not. A step claims its node while it runs: a node an
 * unfinished action or another direct step claims is a 409 (a second one would race it: drain, unlabel or delete
 * the Node under it), and an action asked for meanwhile is refused the same way.
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
        return claimed(node, "drain", () -> steps.drain(node, seconds, grace));
    }

    @POST
    @Path("/nodes/{node}/clear-labels")
    public AirshipStatus clearLabels(@PathParam("node") String node, @QueryParam("timeout") String timeout) {
        long seconds = Seconds.parse("timeout", timeout, DecommissionOptions.CLEAR_LABELS_TIMEOUT);
        return claimed(node, "clear-labels", () -> steps.clearLabels(node, seconds));
    }

    @POST
    @Path("/nodes/{node}/remove-etcd")
    @Consumes(MediaType.WILDCARD)
    public AirshipStatus removeEtcd(@PathParam("node") String node, @QueryParam("timeout") String timeout, String body) {
        long seconds = Seconds.parse("timeout", timeout, DecommissionOptions.REMOVE_ETCD_TIMEOUT);
        DesignRef design = designRef(body);
        return claimed(node, "remove-etcd", () -> steps.removeEtcd(node, seconds, design));
    }

    @GET
    @Path("/etcd-cluster-health-statuses")
    public AirshipStatus etcdHealth(@QueryParam("design_ref") String designRef) {
        return steps.etcdHealth(DesignRef.ofHref(designRef, "MissingDesignRef"));
    }

    @POST
    @Path("/nodes/{node}/shutdown-kubelet")
    public AirshipStatus shutdownKubelet(@PathParam("node") String node) {
        return claimed(node, "shutdown-kubelet", () -> steps.shutdownKubelet(node));
    }

    @POST
    @Path("/nodes/{node}/remove-from-cluster")
    public AirshipStatus removeFromCluster(@PathParam("node") String node) {
        return claimed(node, "remove-from-cluster", () -> steps.removeFromCluster(node));
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
        return claimed(node, "decommission", () -> steps.decommission(node, options, design));
    }

    /** Runs {@code step} holding the node's claim: 409 Conflict while an action or another direct step holds it. */
    private AirshipStatus claimed(String node, String step, Supplier<AirshipStatus> run) {
        try (ActionLeases.NodeLease claim = leases.claimNode(node, step)) {
            return run.get();
        } catch (NodeClaimed e) {
            throw new StepFailure(409, "Conflict", e.getMessage(), List.of(StatusMessage.error(node, e.getMessage())));
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
