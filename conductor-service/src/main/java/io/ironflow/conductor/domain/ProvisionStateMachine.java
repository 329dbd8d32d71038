package io.ironflow.conductor.domain;

import static io.ironflow.conductor.domain.ProvisionEvent.ABORT;
import static io.ironflow.conductor.domain.ProvisionEvent.ADOPT;
import static io.ironflow.conductor.domain.ProvisionEvent.CLEAN;
import static io.ironflow.conductor.domain.ProvisionEvent.DELETE;
import static io.ironflow.conductor.domain.ProvisionEvent.DEPLOY;
import static io.ironflow.conductor.domain.ProvisionEvent.DONE;
import static io.ironflow.conductor.domain.ProvisionEvent.FAIL;
import static io.ironflow.conductor.domain.ProvisionEvent.INSPECT;
import static io.ironflow.conductor.domain.ProvisionEvent.MANAGE;
import static io.ironflow.conductor.domain.ProvisionEvent.PROVIDE;
import static io.ironflow.conductor.domain.ProvisionEvent.REBUILD;
import static io.ironflow.conductor.domain.ProvisionEvent.RESCUE;
import static io.ironflow.conductor.domain.ProvisionEvent.RESUME;
import static io.ironflow.conductor.domain.ProvisionEvent.UNRESCUE;
import static io.ironflow.conductor.domain.ProvisionEvent.WAIT;
import static io.ironflow.conductor.domain.ProvisionState.ACTIVE;
import static io.ironflow.conductor.domain.ProvisionState.ADOPTING;
import static io.ironflow.conductor.domain.ProvisionState.ADOPT_FAILED;
import static io.ironflow.conductor.domain.ProvisionState.AVAILABLE;
import static io.ironflow.conductor.domain.ProvisionState.CLEANING;
import static io.ironflow.conductor.domain.ProvisionState.CLEAN_FAILED;
import static io.ironflow.conductor.domain.ProvisionState.CLEAN_WAIT;
import static io.ironflow.conductor.domain.ProvisionState.DELETING;
import static io.ironflow.conductor.domain.ProvisionState.DEPLOYING;
import static io.ironflow.conductor.domain.ProvisionState.DEPLOY_FAILED;
import static io.ironflow.conductor.domain.ProvisionState.DEPLOY_WAIT;
import static io.ironflow.conductor.domain.ProvisionState.ENROLL;
import static io.ironflow.conductor.domain.ProvisionState.ERROR;
import static io.ironflow.conductor.domain.ProvisionState.INSPECTING;
import static io.ironflow.conductor.domain.ProvisionState.INSPECT_FAILED;
import static io.ironflow.conductor.domain.ProvisionState.INSPECT_WAIT;
import static io.ironflow.conductor.domain.ProvisionState.MANAGEABLE;
import static io.ironflow.conductor.domain.ProvisionState.RESCUE_FAILED;
import static io.ironflow.conductor.domain.ProvisionState.RESCUE_WAIT;
import static io.ironflow.conductor.domain.ProvisionState.RESCUING;
import static io.ironflow.conductor.domain.ProvisionState.UNRESCUE_FAILED;
import static io.ironflow.conductor.domain.ProvisionState.UNRESCUING;
import static io.ironflow.conductor.domain.ProvisionState.VERIFYING;

import java.util.List;
import java.util.Optional;

/**
 * Ironic's provision state machine as one table: every allowed (state, event) pair and where it leads, one
 * edge per line with the reason it exists. Equal to ironic/common/states.py (Ironic 21.4) for the 24 states
 * Ironflow has; {@code docs/states.md} is rendered from it.
 */
public final class ProvisionStateMachine {

    /** One edge of the machine. */
    public record Transition(ProvisionState from, ProvisionEvent event, ProvisionState to, String why) {
    }

    private static final List<Transition> TABLE = List.of(
            // Enrollment and verification
            edge(ENROLL, MANAGE, VERIFYING, "check the driver can reach the node's management controller"),
            edge(VERIFYING, DONE, MANAGEABLE, "credentials verified"),
            edge(VERIFYING, FAIL, ENROLL, "verification failed; fix driver_info and manage again"),
            // Inspection
            edge(MANAGEABLE, INSPECT, INSPECTING, "discover hardware properties"),
            edge(INSPECTING, DONE, MANAGEABLE, "inspection finished"),
            edge(INSPECTING, FAIL, INSPECT_FAILED, "inspection failed"),
            edge(INSPECTING, WAIT, INSPECT_WAIT, "waiting for an out-of-band or agent inspection"),
            edge(INSPECT_WAIT, DONE, MANAGEABLE, "asynchronous inspection finished"),
            edge(INSPECT_WAIT, FAIL, INSPECT_FAILED, "asynchronous inspection failed or timed out"),
            edge(INSPECT_WAIT, ABORT, INSPECT_FAILED, "operator aborted the inspection"),
            edge(INSPECT_FAILED, MANAGE, MANAGEABLE, "operator takes the node back"),
            edge(INSPECT_FAILED, INSPECT, INSPECTING, "retry inspection"),
            // Cleaning, automated (provide, undeploy) and manual (clean)
            edge(MANAGEABLE, PROVIDE, CLEANING, "automated cleaning before the node becomes available"),
            edge(MANAGEABLE, CLEAN, CLEANING, "manual cleaning with operator-given steps"),
            edge(CLEANING, DONE, AVAILABLE, "automated cleaning finished"),
            edge(CLEANING, MANAGE, MANAGEABLE, "manual cleaning, or cleaning of a retired node, finished"),
            edge(CLEANING, FAIL, CLEAN_FAILED, "a clean step failed"),
            edge(CLEANING, WAIT, CLEAN_WAIT, "an asynchronous clean step is running"),
            edge(CLEAN_WAIT, RESUME, CLEANING, "the asynchronous step finished; continue with the next"),
            edge(CLEAN_WAIT, FAIL, CLEAN_FAILED, "the asynchronous step failed or timed out"),
            edge(CLEAN_WAIT, ABORT, CLEAN_FAILED, "operator aborted an abortable step"),
            edge(CLEAN_FAILED, MANAGE, MANAGEABLE, "operator takes the node back"),
            edge(AVAILABLE, MANAGE, MANAGEABLE, "take an unused node out of the pool"),
            // Deployment
            edge(AVAILABLE, DEPLOY, DEPLOYING, "deploy an instance"),
            edge(DEPLOYING, DONE, ACTIVE, "deployment finished"),
            edge(DEPLOYING, FAIL, DEPLOY_FAILED, "deployment failed"),
            edge(DEPLOYING, WAIT, DEPLOY_WAIT, "waiting for the deploy ramdisk to call back"),
            edge(DEPLOY_WAIT, RESUME, DEPLOYING, "the ramdisk called back"),
            edge(DEPLOY_WAIT, FAIL, DEPLOY_FAILED, "no call-back in time"),
            edge(DEPLOY_WAIT, DELETE, DELETING, "undeploy while waiting"),
            edge(DEPLOY_FAILED, DEPLOY, DEPLOYING, "retry the deployment"),
            edge(DEPLOY_FAILED, REBUILD, DEPLOYING, "retry the deployment from scratch"),
            edge(DEPLOY_FAILED, DELETE, DELETING, "give up and undeploy"),
            edge(ACTIVE, REBUILD, DEPLOYING, "redeploy the instance"),
            edge(ERROR, REBUILD, DEPLOYING, "an errored instance can be rebuilt"),
            // Undeployment
            edge(ACTIVE, DELETE, DELETING, "undeploy the instance"),
            edge(ERROR, DELETE, DELETING, "undeploy an errored instance"),
            edge(DELETING, CLEAN, CLEANING, "tear-down done; clean before reuse"),
            edge(DELETING, FAIL, ERROR, "tear-down failed"),
            // Rescue
            edge(ACTIVE, RESCUE, RESCUING, "boot the rescue ramdisk"),
            edge(RESCUING, DONE, ProvisionState.RESCUE, "rescue ramdisk is up"),
            edge(RESCUING, WAIT, RESCUE_WAIT, "waiting for the rescue ramdisk"),
            edge(RESCUING, FAIL, RESCUE_FAILED, "rescue failed"),
            edge(RESCUE_WAIT, RESUME, RESCUING, "the rescue ramdisk called back"),
            edge(RESCUE_WAIT, FAIL, RESCUE_FAILED, "no call-back in time"),
            edge(RESCUE_WAIT, ABORT, RESCUE_FAILED, "operator aborted the rescue"),
            edge(RESCUE_WAIT, DELETE, DELETING, "undeploy while waiting"),
            edge(ProvisionState.RESCUE, RESCUE, RESCUING, "rescue again"),
            edge(ProvisionState.RESCUE, UNRESCUE, UNRESCUING, "return to the instance"),
            edge(ProvisionState.RESCUE, DELETE, DELETING, "undeploy a rescued node"),
            edge(RESCUE_FAILED, RESCUE, RESCUING, "retry the rescue"),
            edge(RESCUE_FAILED, UNRESCUE, UNRESCUING, "give up and return to the instance"),
            edge(RESCUE_FAILED, DELETE, DELETING, "give up and undeploy"),
            edge(UNRESCUING, DONE, ACTIVE, "the instance is back"),
            edge(UNRESCUING, FAIL, UNRESCUE_FAILED, "unrescue failed"),
            edge(UNRESCUE_FAILED, RESCUE, RESCUING, "rescue again"),
            edge(UNRESCUE_FAILED, UNRESCUE, UNRESCUING, "retry the unrescue"),
            edge(UNRESCUE_FAILED, DELETE, DELETING, "give up and undeploy"),
            // Adoption of a node already running an instance
            edge(MANAGEABLE, ADOPT, ADOPTING, "take over a running instance without deploying"),
            edge(ADOPTING, DONE, ACTIVE, "adoption finished"),
            edge(ADOPTING, FAIL, ADOPT_FAILED, "adoption failed"),
            edge(ADOPT_FAILED, ADOPT, ADOPTING, "retry the adoption"),
            edge(ADOPT_FAILED, MANAGE, MANAGEABLE, "give up and manage the node"));

    private ProvisionStateMachine() {
    }

    private static Transition edge(ProvisionState from, ProvisionEvent event, ProvisionState to, String why) {
        return new Transition(from, event, to, why);
    }

    public static List<Transition> table() {
        return TABLE;
    }

    /** Where {@code event} leads from {@code from}, or empty when the machine does not allow it. */
    public static Optional<ProvisionState> next(ProvisionState from, ProvisionEvent event) {
        return TABLE.stream().filter(t -> t.from() == from && t.event() == event).map(Transition::to).findFirst();
    }
}
