package io.ironflow.deploy.infra;

import io.ironflow.schemas.Topic;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;

/**
 * One Kafka principal and the only rights it has on Ironflow's topics and groups: the table the secure broker's
 * ACLs are made from (the same rights as {@code deploy/kubernetes/users.yaml}, checked by a test). Only the API,
 * the allocator, the teardown orchestrator and configured external producers may write
 * {@code ironflow.node-intents}; only conductors write results, node state, node events and allocation requests;
 * only the allocator writes allocation results; dashboards and external readers only read.
 * <p>
 * Consumer groups are granted by their literal names: joining a group lets a member take partitions from the others
 * and commit offsets past records they never read, so a principal whose name starts another's group (a reader named
 * {@code ironflow-node} and the node history's {@code ironflow-node-history}) must not reach it. The only prefixes
 * are the API's and the teardown orchestrator's per-instance groups ({@code ironflow-api-<uuid>}, each instance
 * reads every result); {@link #reservedGroup} keeps external principals' names out of every service group.
 */
public record KafkaAccess(String user, List<AclBinding> acls) {

    public static final String API = "ironflow-api";
    public static final String CONDUCTOR = "ironflow-conductor";
    public static final String ONEVIEW = "ironflow-oneview";
    public static final String TEARDOWN = "ironflow-teardown";
    public static final String DASHBOARD = "ironflow-dashboard";

    private static final AclOperation[] WRITE = {AclOperation.WRITE, AclOperation.DESCRIBE};
    private static final AclOperation[] READ = {AclOperation.READ, AclOperation.DESCRIBE};

    /** The five services' principals. */
    public static List<KafkaAccess> services() {
        return List.of(
                of(API).topic(Topic.NODE_INTENTS, WRITE).topic(Topic.INTENT_RESULTS, READ)
                        .groupPrefix("ironflow-api-").build(), // each API instance has a group of its own
                of(CONDUCTOR).topic(Topic.NODE_INTENTS, READ).group("ironflow-conductor")
                        .group("ironflow-conductor-allocations") // allocation results
                        .topic(Topic.NODE_EVENTS, READ).group("ironflow-node-history") // the node history projection
                        .topic(Topic.INTENT_RESULTS, WRITE).topic(Topic.NODE_STATE, WRITE).topic(Topic.NODE_EVENTS, WRITE)
                        .topic(Topic.NODE_INTENTS_DLQ, WRITE).topic(Topic.ALLOCATION_REQUESTS, WRITE)
                        .topic(Topic.ALLOCATION_RESULTS, READ).topic(Topic.ALLOCATION_RESULTS_DLQ, WRITE).build(),
                of(ONEVIEW).topic(Topic.ALLOCATION_REQUESTS, READ).group("ironflow-oneview-allocator")
                        .group("ironflow-oneview-allocator-checks") // the power checks' node-state view
                        .topic(Topic.ALLOCATION_RESULTS, WRITE).topic(Topic.ALLOCATION_REQUESTS_DLQ, WRITE)
                        .topic(Topic.NODE_INTENTS, WRITE).topic(Topic.INTENT_RESULTS, READ).topic(Topic.NODE_STATE, READ)
                        .build(),
                of(TEARDOWN).topic(Topic.NODE_INTENTS, WRITE).topic(Topic.INTENT_RESULTS, READ)
                        .topic(Topic.NODE_STATE, READ).topic(Topic.TEARDOWN_EVENTS, WRITE)
                        .groupPrefix("ironflow-teardown-") // each instance has a group of its own
                        .build(),
                // assigns partitions and commits nothing, so it needs no group
                of(DASHBOARD).topic(Topic.NODE_STATE, READ).topic(Topic.NODE_EVENTS, READ)
                        .topic(Topic.TEARDOWN_EVENTS, READ).build());
    }

    /**
     * An external producer of intents (a site's own automation): writes intents and reads their results, in the
     * one consumer group named as itself (several instances assign partitions instead, as the dashboard does). The
     * conductor still checks each intent's principal against the RBAC table.
     */
    public static KafkaAccess intentProducer(String user) {
        return of(user).topic(Topic.NODE_INTENTS, WRITE).topic(Topic.INTENT_RESULTS, READ).group(user).build();
    }

    /**
     * A read-only principal (a dashboard of a site's own): node state, node events and teardown events, in the one
     * consumer group named as itself.
     */
    public static KafkaAccess reader(String user) {
        return of(user).topic(Topic.NODE_STATE, READ).topic(Topic.NODE_EVENTS, READ).topic(Topic.TEARDOWN_EVENTS, READ)
                .group(user).build();
    }

    /**
     * The service consumer group {@code group} would be or fall under, if any: an external principal, whose group is
     * its name, must not be named so.
     */
    public static java.util.Optional<String> reservedGroup(String group) {
        return services().stream().flatMap(s -> s.acls().stream()).map(AclBinding::pattern)
                .filter(p -> p.resourceType() == ResourceType.GROUP)
                .filter(p -> p.patternType() == PatternType.PREFIXED ? group.startsWith(p.name()) : group.equals(p.name()))
                .map(p -> p.patternType() == PatternType.PREFIXED ? p.name() + "*" : p.name()).findFirst();
    }

    private static Builder of(String user) {
        return new Builder(user);
    }

    private static final class Builder {
        private final String user;
        private final List<AclBinding> acls = new ArrayList<>();

        Builder(String user) {
            this.user = user;
        }

        Builder topic(Topic topic, AclOperation... operations) {
            return allow(new ResourcePattern(ResourceType.TOPIC, topic.topicName(), PatternType.LITERAL), operations);
        }

        Builder group(String name) {
            return allow(new ResourcePattern(ResourceType.GROUP, name, PatternType.LITERAL), AclOperation.READ);
        }

        Builder groupPrefix(String prefix) {
            return allow(new ResourcePattern(ResourceType.GROUP, prefix, PatternType.PREFIXED), AclOperation.READ);
        }

        private Builder allow(ResourcePattern resource, AclOperation... operations) {
            for (AclOperation operation : operations) {
                acls.add(new AclBinding(resource,
                        new AccessControlEntry("User:" + user, "*", operation, AclPermissionType.ALLOW)));
            }
            return this;
        }

        KafkaAccess build() {
            return new KafkaAccess(user, List.copyOf(acls));
        }
    }
}
