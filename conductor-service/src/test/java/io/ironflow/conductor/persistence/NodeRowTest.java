package io.ironflow.conductor.persistence;

import static io.ironflow.conductor.testing.Transactions.inTransaction;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ironflow.conductor.domain.NewNode;
import io.ironflow.deploy.testing.IronflowTestInfrastructure;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * {@link NodeRow} writes every field of {@link NodeEntity}: a node whose every field was given a new value, written
 * by NodeRow's statement on a real PostgreSQL and loaded again by Hibernate, comes back equal field by field (a field
 * added to the entity and not to the statement comes back as it was, and fails here); nulls are written as nulls.
 */
@QuarkusTest
@QuarkusTestResource(IronflowTestInfrastructure.class)
class NodeRowTest {

    @Inject
    Vertx vertx;

    @Inject
    Pool pool;

    @Test
    void everyFieldIsWrittenAndReadBackAsHibernateReadsIt() throws Exception {
        UUID uuid = enrolled();
        NodeEntity changed = inTransaction(vertx, () -> NodeEntity.<NodeEntity>findById(uuid).flatMap(node -> {
            fields().forEach(field -> set(field, node, changedValue(field)));
            return write(node).replaceWith(node);
        }));
        NodeEntity read = inTransaction(vertx, () -> NodeEntity.findById(uuid));
        for (Field field : fields()) {
            Object before = changedValue(field);
            assertTrue(Objects.deepEquals(before, field.get(read)), field.getName() + ": wrote " + format(before)
                    + ", read " + format(field.get(read)));
            assertTrue(Objects.deepEquals(field.get(changed), field.get(read)), field.getName());
        }
    }

    @Test
    void aNewNodesRowIsInsertedWithEveryField() throws Exception {
        NodeEntity created = new NodeEntity();
        created.uuid = UUID.randomUUID();
        fields().forEach(field -> set(field, created, changedValue(field)));
        created.name = "inserted-" + created.uuid; // names are unique
        inTransaction(vertx, () -> withNodeRow(NodeRow.insertCte("created", 1), created));
        assertSameFields(created, inTransaction(vertx, () -> NodeEntity.findById(created.uuid)), "inserted", "read");
    }

    @Test
    void theRowIsReadAsHibernateReadsIt() throws Exception {
        UUID uuid = enrolled();
        inTransaction(vertx, () -> NodeEntity.<NodeEntity>findById(uuid).flatMap(node -> {
            fields().forEach(field -> set(field, node, changedValue(field)));
            node.name = "read-" + uuid; // names are unique: the other test's node has the changed one
            return write(node);
        }));
        NodeEntity loaded = inTransaction(vertx, () -> NodeEntity.findById(uuid));
        NodeEntity read = NodeRow.read(pool.preparedQuery("SELECT " + NodeRow.SELECT_LIST + " FROM nodes WHERE uuid = $1")
                .execute(Tuple.of(uuid)).await().indefinitely().iterator().next());
        assertEquals(uuid, read.uuid);
        assertSameFields(loaded, read, "Hibernate loads", "NodeRow reads");
    }

    /** Every persistent field of {@code actual} as {@code expected} has it. */
    private static void assertSameFields(NodeEntity expected, NodeEntity actual, String expectedIs, String actualIs)
            throws IllegalAccessException {
        for (Field field : fields()) {
            assertTrue(Objects.deepEquals(field.get(expected), field.get(actual)), field.getName() + ": " + expectedIs + " "
                    + format(field.get(expected)) + ", " + actualIs + " " + format(field.get(actual)));
        }
    }

    @Test
    void nullsAreWrittenAsNulls() throws Exception {
        UUID uuid = enrolled();
        inTransaction(vertx, () -> NodeEntity.<NodeEntity>findById(uuid).flatMap(node -> {
            node.name = "named-" + uuid;
            node.cleanStep = Map.of("step", "erase_devices");
            node.lastError = "failed";
            return write(node);
        }));
        inTransaction(vertx, () -> NodeEntity.<NodeEntity>findById(uuid).flatMap(node -> {
            node.name = null;
            node.cleanStep = null;
            node.lastError = null;
            return write(node);
        }));
        NodeEntity read = inTransaction(vertx, () -> NodeEntity.findById(uuid));
        assertEquals(null, read.name);
        assertEquals(null, read.cleanStep);
        assertEquals(null, read.lastError);
    }

    @Test
    void theStatementNamesEveryColumnOnce() {
        String cte = NodeRow.updateCte("written", 7);
        assertTrue(cte.startsWith("written AS (UPDATE nodes SET name = ?7, "), cte);
        assertTrue(cte.endsWith(" WHERE uuid = ?" + (7 + NodeRow.COLUMNS.size()) + ")"), cte);
        assertEquals(NodeRow.COLUMNS.size(), NodeRow.COLUMNS.stream().map(NodeRow.Column::name).distinct().count());
        assertEquals(fields().size(), NodeRow.COLUMNS.size(), "one column per field of the entity but its key");
        assertFalse(cte.contains("uuid = ?7"), cte);
    }

    /** Runs NodeRow's statement for {@code node}, detached first as the intent's transaction does. */
    private static Uni<Void> write(NodeEntity node) {
        return Panache.getSession().flatMap(session -> {
            session.detach(node);
            return withNodeRow(NodeRow.updateCte("written", 1), node);
        });
    }

    /** Runs {@code cte} (NodeRow's, parameters from 1) with {@code node}'s parameters, in the current session. */
    private static Uni<Void> withNodeRow(String cte, NodeEntity node) {
        return Panache.getSession().flatMap(session -> {
            List<Object> parameters = NodeRow.parameters(node);
            var statement = session.createNativeQuery("WITH " + cte + " SELECT 1");
            for (int i = 0; i < parameters.size(); i++) {
                statement.setParameter(i + 1, parameters.get(i));
            }
            return statement.getSingleResult();
        }).replaceWithVoid();
    }

    private UUID enrolled() throws Exception {
        UUID uuid = UUID.randomUUID();
        NewNode created = new NewNode(uuid, null, "fake-hardware", Map.of("ipmi_address", "10.0.0.1"), Map.of(),
                Map.of(), Map.of(), null, null, null, null, null, "", Map.of(), null);
        inTransaction(vertx, () -> NodeEntity.enroll(created, "test", Instant.now()).persist().replaceWithVoid());
        return uuid;
    }

    /**
     * The entity's persistent fields but its key (Panache makes the public fields private behind accessors, and
     * Hibernate's enhancement adds fields of its own, named with {@code $$}).
     */
    private static List<Field> fields() {
        List<Field> fields = new ArrayList<>();
        for (Field field : NodeEntity.class.getDeclaredFields()) {
            int modifiers = field.getModifiers();
            if (!Modifier.isStatic(modifiers) && !Modifier.isTransient(modifiers) && !field.isSynthetic()
                    && !field.getName().startsWith("$$") && !field.getName().equals("uuid")) {
                field.setAccessible(true);
                fields.add(field);
            }
        }
        assertTrue(fields.size() > 30, "the entity's fields: " + fields);
        return fields;
    }

    /** A value for {@code field} unlike what enrollment gave it, of the field's type. */
    private static Object changedValue(Field field) {
        String name = field.getName();
        Class<?> type = field.getType();
        if (type == String.class) {
            return name.equals("provisionState") ? "manageable" : "v-" + name + "-\u00e9\u00df\"'\\";
        }
        if (type == UUID.class) {
            return UUID.nameUUIDFromBytes(name.getBytes());
        }
        if (type == Boolean.class || type == boolean.class) {
            return true;
        }
        if (type == Integer.class) {
            return 1_000_000 + name.length();
        }
        if (type == long.class) {
            return 4_000_000_000L + name.length();
        }
        if (type == Instant.class) {
            return Instant.parse("2026-01-02T03:04:05.123456Z").plus(name.length(), ChronoUnit.SECONDS);
        }
        if (type == String[].class) {
            return new String[] {"CUSTOM_" + name.toUpperCase(), "HW_CPU_X86_AVX2"};
        }
        if (type == Map.class) {
            Map<String, Object> map = new LinkedHashMap<>();
            map.put("k-" + name, List.of(1, 2.5, "three", false));
            map.put("nested", new LinkedHashMap<>(Map.of("deep", Map.of("unicode", "\u2603 \"q\" \\"))));
            map.put("none", null);
            return map;
        }
        throw new AssertionError("no changed value for " + name + " of " + type);
    }

    private static void set(Field field, NodeEntity node, Object value) {
        try {
            assertNotEquals(Objects.toString(field.get(node)), Objects.toString(value), field.getName());
            field.set(node, value);
        } catch (IllegalAccessException e) {
            throw new AssertionError(e);
        }
    }

    private static String format(Object value) {
        return value instanceof Object[] array ? Arrays.toString(array) : String.valueOf(value);
    }
}
