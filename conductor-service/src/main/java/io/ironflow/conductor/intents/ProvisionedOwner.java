package io.ironflow.conductor.intents;

import io.ironflow.conductor.domain.NodePatch;
import io.ironflow.conductor.domain.ProvisionState;
import io.ironflow.conductor.domain.Rejection;
import io.ironflow.conductor.persistence.NodeEntity;
import io.ironflow.policy.NodeOwnership;
import io.ironflow.policy.Policy;
import io.ironflow.policy.Principal;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * Ironic's {@code baremetal:node:update_owner_provisioned} (ironic/api/controllers/v1/node.py, the node patch): a
 * patch that sets the owner of an active node needs that rule too (a system admin by default), or it is answered
 * 409 in Ironic's words and changes nothing. As Ironic, only a patch that sets /owner counts, not one that removes it.
 */
@ApplicationScoped
class ProvisionedOwner {

    static final String RULE = "baremetal:node:update_owner_provisioned";

    private final Policy policy;

    ProvisionedOwner(ConductorPolicy policy) {
        this.policy = policy.policy();
    }

    void requireMayChange(Principal who, NodeEntity node, String patch) {
        if (who == null || !ProvisionState.ACTIVE.wire().equals(node.provisionState) || !NodePatch.sets(patch, "/owner")) {
            return;
        }
        if (!policy.allows(RULE, who, new NodeOwnership(node.owner, node.lessee))) {
            throw Rejection.conflict("Cannot update owner of node \"" + node.uuid + "\" while it is in state \"active\".");
        }
    }
}
