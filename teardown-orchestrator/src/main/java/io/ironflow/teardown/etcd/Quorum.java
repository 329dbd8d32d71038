package io.ironflow.teardown.etcd;

import java.util.List;
import java.util.function.Predicate;

/**
 * Whether an etcd member may leave without breaking its cluster, by etcd's own rule
 * ({@code IsReadyToRemoveVotingMember}), applied before asking etcd: a learner may always go; otherwise the
 * voting members that remain must hold a quorum ({@code n/2 + 1} of them) of started, healthy members, and at
 * least one must remain. Pure.
 */
public final class Quorum {

    private Quorum() {
    }

    /**
     * Whether removing {@code target} would leave no voting member: a refusal no wait mends, unlike a quorum short
     * of healthy members (one restarting), which a later try may find whole.
     */
    public static boolean last(List<EtcdMember> members, EtcdMember target) {
        return !target.learner() && remainingVoters(members, target).isEmpty();
    }

    private static List<EtcdMember> remainingVoters(List<EtcdMember> members, EtcdMember target) {
        return members.stream().filter(m -> !m.learner() && !m.id().equals(target.id())).toList();
    }

    /** Why {@code target} must not be removed, or null when it may be. */
    public static String refusal(List<EtcdMember> members, EtcdMember target, Predicate<EtcdMember> healthy) {
        if (target.learner()) {
            return null;
        }
        List<EtcdMember> remaining = remainingVoters(members, target);
        if (remaining.isEmpty()) {
            return "member " + target.label() + " is the cluster's last voting member: removing it would destroy the cluster";
        }
        int quorum = remaining.size() / 2 + 1;
        List<String> healthyOnes = remaining.stream().filter(healthy).map(EtcdMember::label).toList();
        if (healthyOnes.size() < quorum) {
            return "removing member " + target.label() + " would break the cluster: the " + remaining.size()
                    + " remaining voting members need " + quorum + " healthy for a quorum and " + healthyOnes.size()
                    + " are healthy " + healthyOnes;
        }
        return null;
    }
}
