package io.ironflow.deploy.infra;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourceType;
import org.junit.jupiter.api.Test;

/**
 * The ACL table's consumer groups (issue 58): external principals get exactly one group, named as they are, and
 * may not be named as a service's group; the services' only prefixed groups are the per-instance ones.
 */
class KafkaAccessTest {

    @Test
    void externalPrincipalsGetTheirOwnLiteralGroupOnly() {
        for (KafkaAccess external : List.of(KafkaAccess.reader("ironflow-node"), KafkaAccess.intentProducer("ironflow"))) {
            var groups = external.acls().stream().map(acl -> acl.pattern())
                    .filter(p -> p.resourceType() == ResourceType.GROUP).toList();
            assertEquals(1, groups.size(), external.user());
            assertEquals(PatternType.LITERAL, groups.get(0).patternType(), external.user());
            assertEquals(external.user(), groups.get(0).name());
        }
    }

    @Test
    void onlyThePerInstanceGroupsArePrefixed() {
        var prefixed = KafkaAccess.services().stream().flatMap(s -> s.acls().stream()).map(acl -> acl.pattern())
                .filter(p -> p.resourceType() == ResourceType.GROUP && p.patternType() != PatternType.LITERAL)
                .map(p -> p.name()).distinct().sorted().toList();
        assertEquals(List.of("ironflow-api-", "ironflow-teardown-"), prefixed);
    }

    @Test
    void anExternalPrincipalMayNotBeNamedAsAServiceGroup() {
        for (String name : List.of("ironflow-node-history", "ironflow-conductor-allocations", "ironflow-api-x",
                "ironflow-teardown-1", "ironflow-oneview-allocator-checks")) {
            var refused = assertThrows(IllegalArgumentException.class,
                    () -> new KafkaSecurity.Options(List.of(), List.of(name), null), name);
            assertTrue(refused.getMessage().contains("consumer group"), refused.getMessage());
        }
        new KafkaSecurity.Options(List.of("ironflow"), List.of("ironflow-node"), null); // a prefix of a group is fine now
    }
}
