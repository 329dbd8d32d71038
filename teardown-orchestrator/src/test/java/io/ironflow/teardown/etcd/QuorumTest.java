package io.ironflow.teardown.etcd;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** etcd's removal rule: the remaining voting members must keep a healthy quorum. */
class QuorumTest {

    static EtcdMember member(String id, boolean learner) {
        return new EtcdMember(id, "n" + id, List.of("http://127.0.0.1:2380"), List.of(), learner);
    }

    static String refusal(List<EtcdMember> members, String target, Set<String> healthy) {
        EtcdMember t = members.stream().filter(m -> m.id().equals(target)).findFirst().orElseThrow();
        return Quorum.refusal(members, t, m -> healthy.contains(m.id()));
    }

    @Test
    void threeMembers() {
        List<EtcdMember> three = List.of(member("1", false), member("2", false), member("3", false));
        assertNull(refusal(three, "1", Set.of("1", "2", "3")));
        assertNull(refusal(three, "1", Set.of("2", "3")), "a member that is down may go");
        assertNotNull(refusal(three, "1", Set.of("1", "2")), "the remaining two need both healthy");
    }

    @Test
    void twoAndOneMembers() {
        List<EtcdMember> two = List.of(member("1", false), member("2", false));
        assertNull(refusal(two, "1", Set.of("2")));
        assertNotNull(refusal(two, "1", Set.of("1")));
        assertNotNull(refusal(List.of(member("1", false)), "1", Set.of("1")), "the last member never goes");
    }

    @Test
    void learnersAreNotCountedAndMayAlwaysGo() {
        List<EtcdMember> members = List.of(member("1", false), member("2", false), member("3", true));
        assertNull(refusal(members, "3", Set.of()));
        assertNotNull(refusal(members, "1", Set.of("1", "3")), "a learner is no part of the quorum");
    }
}
