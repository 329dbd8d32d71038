package io.ironflow.teardown.etcd;

import io.ironflow.teardown.status.StatusMessage;
import io.ironflow.teardown.status.StepFailure;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The etcd side of a teardown: remove a node's members one at a time, each only while the others keep a quorum
 * ({@link Quorum}); report each member's health; wait until the cluster is stable again without the leaving node.
 */
@ApplicationScoped
public class EtcdTeardown {

    static final Duration REMOVE_RETRY = Duration.ofSeconds(1);

    @Inject
    EtcdGateway etcd;

    @ConfigProperty(name = "ironflow.teardown.etcd.poll-interval", defaultValue = "30s")
    Duration pollInterval;

    /** Removes every member of {@code node}; a refusal or a removal not done within {@code timeout} is a 500. */
    public List<StatusMessage> removeMembersOf(String node, Duration timeout) {
        Instant deadline = Instant.now().plus(timeout);
        List<StatusMessage> done = new ArrayList<>();
        try {
            List<EtcdMember> members = etcd.members();
            List<EtcdMember> ofNode = members.stream().filter(m -> m.belongsTo(node)).toList();
            if (ofNode.isEmpty()) {
                return List.of(StatusMessage.info(node, "node " + node + " runs no etcd member"));
            }
            for (EtcdMember member : ofNode) {
                while (true) {
                    members = etcd.members();
                    if (members.stream().noneMatch(m -> m.id().equals(member.id()))) {
                        break;
                    }
                    Map<String, EtcdGateway.Health> health = new HashMap<>();
                    for (EtcdMember m : members) {
                        health.put(m.id(), etcd.health(m));
                    }
                    String refusal = Quorum.refusal(members, member, m -> health.get(m.id()) == EtcdGateway.Health.HEALTHY);
                    // A quorum short of healthy members (one restarting) may be whole again within the timeout, as
                    // etcd's own refusal below is waited out; the last voting member never may go.
                    String error = refusal != null ? refusal : etcd.remove(member);
                    if (refusal != null && Quorum.last(members, member)) {
                        throw removeError("etcd member " + member.label() + " of node " + node + " was not removed: " + refusal,
                                member, refusal, done);
                    }
                    if (error == null) {
                        break;
                    }
                    // etcd refuses a reconfiguration for a while after a member (re)connects: retry within the timeout.
                    if (Instant.now().plus(REMOVE_RETRY).isAfter(deadline)) {
                        throw removeError("etcd member " + member.label() + " of node " + node + " was not removed within "
                                + timeout.toSeconds() + " s: " + error, member, error, done);
                    }
                    sleep(REMOVE_RETRY);
                }
                done.add(StatusMessage.info(member.label(), "etcd member " + member.label() + " removed from its cluster"));
            }
            return done;
        } catch (EtcdGateway.Unreachable e) {
            throw removeError("etcd could not be reached: " + e.getMessage(), null, e.getMessage(), done);
        } catch (EtcdGateway.InvalidHealth e) {
            throw removeError("etcd's health could not be read: " + e.getMessage(), null, e.getMessage(), done);
        }
    }

    /** Healthy / Unhealthy / "Unable to access Etcd" per voting member; 404 when etcd cannot be found, 500 on nonsense. */
    public List<StatusMessage> healthStatuses() {
        List<EtcdMember> members;
        try {
            members = etcd.members();
        } catch (EtcdGateway.Unreachable e) {
            throw StepFailure.notFound("the etcd cluster could not be located: " + e.getMessage());
        }
        List<StatusMessage> statuses = new ArrayList<>();
        for (EtcdMember member : members) {
            if (member.learner()) {
                continue; // a learner serves no linearizable read: not probed (ahrtr/etcd-defrag#26)
            }
            try {
                statuses.add(switch (etcd.health(member)) {
                    case HEALTHY -> StatusMessage.health(member.label(), "Healthy", false);
                    case UNHEALTHY -> StatusMessage.health(member.label(), "Unhealthy", false);
                    case UNREACHABLE -> StatusMessage.health(member.label(), "Unable to access Etcd", true);
                });
            } catch (EtcdGateway.InvalidHealth e) {
                throw new StepFailure(500, "EtcdNotAccessible", e.getMessage(), List.of(StatusMessage.health(member.label(), e.getMessage(), true)));
            }
        }
        return statuses;
    }

    /**
     * Polls every {@code poll-interval} (30 s by default, as the spec says) until every voting member other than
     * {@code leavingNode}'s is healthy and sees a leader; a 500 EtcdNotStable after {@code timeout}.
     */
    public List<StatusMessage> awaitStable(String leavingNode, Duration timeout) {
        Instant deadline = Instant.now().plus(timeout);
        String last;
        while (true) {
            last = instability(leavingNode);
            if (last == null) {
                return List.of(StatusMessage.info(null, "etcd is stable without node " + leavingNode));
            }
            if (Instant.now().plus(pollInterval).isAfter(deadline)) {
                throw new StepFailure(500, "EtcdNotStable", "etcd did not become stable within " + timeout.toSeconds() + " s: " + last,
                        List.of(StatusMessage.error(null, last)));
            }
            sleep(pollInterval);
        }
    }

    private String instability(String leavingNode) {
        try {
            List<EtcdMember> others = etcd.members().stream().filter(m -> !m.learner() && !m.belongsTo(leavingNode)).toList();
            if (others.isEmpty()) {
                return "no etcd member left";
            }
            for (EtcdMember member : others) {
                if (etcd.health(member) != EtcdGateway.Health.HEALTHY) {
                    return "member " + member.label() + " is not healthy";
                }
                if (!etcd.seesLeader(member)) {
                    return "member " + member.label() + " sees no leader";
                }
            }
            return null;
        } catch (EtcdGateway.Unreachable | EtcdGateway.InvalidHealth e) {
            return e.getMessage();
        }
    }

    private static StepFailure removeError(String message, EtcdMember member, String detail, List<StatusMessage> done) {
        List<StatusMessage> details = new ArrayList<>(done);
        details.add(StatusMessage.error(member == null ? null : member.label(), detail));
        return new StepFailure(500, "RemoveEtcdError", message, details);
    }

    private static void sleep(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StepFailure(500, "RemoveEtcdError", "interrupted");
        }
    }
}
