package io.ironflow.teardown.etcd;

import java.net.URI;
import java.util.List;

/**
 * One member of an etcd cluster as {@code /v3/cluster/member/list} shows it. {@code id} is the uint64 member ID
 * as the JSON gateway writes it (a decimal string). A member belongs to a node when it is named after it or one
 * of its peer URLs has the node's name as host.
 */
public record EtcdMember(String id, String name, List<String> peerUrls, List<String> clientUrls, boolean learner) {

    public boolean belongsTo(String node) {
        return node.equals(name) || peerUrls.stream().anyMatch(url -> node.equals(URI.create(url).getHost()));
    }

    /** The member's name, or its hex ID before it has one (a member added but not yet started). */
    public String label() {
        return name == null || name.isEmpty() ? Long.toHexString(Long.parseUnsignedLong(id)) : name;
    }
}
