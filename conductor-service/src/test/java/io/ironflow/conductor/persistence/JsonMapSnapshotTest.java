package io.ironflow.conductor.persistence;

import static io.ironflow.conductor.testing.Transactions.inTransaction;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.ironflow.conductor.domain.NewNode;
import io.ironflow.conductor.testing.Sql;
import io.ironflow.deploy.testing.IronflowTestInfrastructure;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.Vertx;
import jakarta.inject.Inject;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.hibernate.metamodel.MappingMetamodel;
import org.hibernate.reactive.mutiny.Mutiny;
import org.junit.jupiter.api.Test;

/**
 * The node's JSON columns are snapshotted structurally ({@link JsonMapSnapshot}), and dirty checking still sees every
 * change: one made in place deep inside a column is written, and a node loaded and left alone is not written at all.
 */
@QuarkusTest
@QuarkusTestResource(IronflowTestInfrastructure.class)
class JsonMapSnapshotTest {

    private static final List<String> JSON_COLUMNS = List.of("driverInfo", "properties", "extra", "instanceInfo",
            "driverInternalInfo", "cleanStep", "networkData", "ports", "portgroups");

    @Inject
    Vertx vertx;
    @Inject
    Mutiny.SessionFactory sessions;

    @Test
    void copiesEveryMapAndListAndSharesTheLeaves() {
        List<Object> list = new ArrayList<>(List.of("a", Map.of("b", 2)));
        Map<String, Object> nested = new HashMap<>(Map.of("deep", 1.5));
        Map<String, Object> value = new HashMap<>(Map.of("list", list, "nested", nested, "text", "t"));
        Map<String, Object> copy = new JsonMapSnapshot().deepCopy(value);
        assertEquals(value, copy);
        assertNotSame(value, copy);
        assertNotSame(list, copy.get("list"));
        assertNotSame(nested, copy.get("nested"));
        assertNotSame(list.get(1), ((List<?>) copy.get("list")).get(1));
        assertSame(value.get("text"), copy.get("text"));
        assertNull(new JsonMapSnapshot().deepCopy(null));
    }

    @Test
    void hibernateSnapshotsEveryJsonColumnWithIt() {
        var node = sessions.getMetamodel().entity(NodeEntity.class);
        // Hibernate's metamodel is also its mapping metamodel, where the persister keeps each attribute's plan
        var persister = ((MappingMetamodel) sessions.getMetamodel()).getEntityDescriptor(NodeEntity.class);
        for (String column : JSON_COLUMNS) {
            assertEquals(Map.class, node.getAttribute(column).getJavaType(), column);
            assertInstanceOf(JsonMapSnapshot.class,
                    persister.findAttributeMapping(column).getAttributeMetadata().getMutabilityPlan(), column);
        }
    }

    @Test
    void aChangeInPlaceIsWrittenAndNoChangeWritesNothing() throws Exception {
        UUID uuid = UUID.randomUUID();
        Map<String, Object> info = Map.of("ipmi", Map.of("address", "10.0.0.1", "ports", List.of(623)));
        NewNode created = new NewNode(uuid, null, "fake-hardware", info, Map.of(), Map.of(), Map.of(), null, null,
                null, null, null, "", Map.of(), null);
        inTransaction(vertx, () -> NodeEntity.enroll(created, "test", Instant.now()).persist().replaceWithVoid());
        String written = Sql.query("SELECT xmin FROM nodes WHERE uuid = '" + uuid + "'");

        inTransaction(vertx, () -> NodeEntity.<NodeEntity>findById(uuid).replaceWithVoid());
        assertEquals(written, Sql.query("SELECT xmin FROM nodes WHERE uuid = '" + uuid + "'"),
                "a node loaded and left alone was written");

        inTransaction(vertx, () -> NodeEntity.<NodeEntity>findById(uuid).invoke(node -> {
            @SuppressWarnings("unchecked")
            Map<String, Object> ipmi = (Map<String, Object>) node.driverInfo.get("ipmi");
            ipmi.put("address", "10.0.0.2");
            @SuppressWarnings("unchecked")
            List<Object> ports = (List<Object>) ipmi.get("ports");
            ports.add(624);
        }).replaceWithVoid());
        assertEquals("10.0.0.2", Sql.query("SELECT driver_info->'ipmi'->>'address' FROM nodes WHERE uuid = '" + uuid + "'"));
        assertEquals("[623, 624]", Sql.query("SELECT driver_info->'ipmi'->>'ports' FROM nodes WHERE uuid = '" + uuid + "'"));
    }
}
