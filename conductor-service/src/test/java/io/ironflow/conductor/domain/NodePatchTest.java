package io.ironflow.conductor.domain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** RFC 6902 over the node's writable fields, as Ironic's PATCH /v1/nodes/{id} takes it. */
class NodePatchTest {

    private static Map<String, Object> node() {
        Map<String, Object> doc = new HashMap<>();
        doc.put("name", "n1");
        doc.put("retired", false);
        doc.put("extra", new HashMap<>(Map.of("a", 1)));
        return doc;
    }

    @Test
    void booleansComeAsJsonOrAsTheTextTheCliSends() {
        for (String text : new String[] {"True", "true", "1", "yes", "on"}) {
            Map<String, Object> doc = node();
            NodePatch.apply(doc, "[{\"op\": \"add\", \"path\": \"/retired\", \"value\": \"" + text + "\"}]");
            assertEquals(true, doc.get("retired"), text);
        }
        Map<String, Object> doc = node();
        NodePatch.apply(doc, "[{\"op\": \"replace\", \"path\": \"/automated_clean\", \"value\": \"False\"}]");
        assertEquals(false, doc.get("automated_clean"));
        Rejection bad = assertThrows(Rejection.class,
                () -> NodePatch.apply(node(), "[{\"op\": \"add\", \"path\": \"/retired\", \"value\": \"perhaps\"}]"));
        assertEquals(400, bad.code());
        assertTrue(bad.getMessage().contains("retired"), bad.getMessage());
    }

    @Test
    void dictionaryMembersAndReadOnlyPaths() {
        Map<String, Object> doc = node();
        NodePatch.apply(doc, "[{\"op\": \"add\", \"path\": \"/extra/b\", \"value\": \"x\"},"
                + " {\"op\": \"remove\", \"path\": \"/extra/a\"}, {\"op\": \"add\", \"path\": \"/name\", \"value\": \"n2\"}]");
        assertEquals(Map.of("b", "x"), doc.get("extra"));
        assertEquals("n2", doc.get("name"));
        // a member set to null is there, and removable by its path; one never set is not
        NodePatch.apply(doc, "[{\"op\": \"add\", \"path\": \"/extra/c\", \"value\": null},"
                + " {\"op\": \"remove\", \"path\": \"/extra/c\"}]");
        assertEquals(Map.of("b", "x"), doc.get("extra"));
        assertEquals(400, assertThrows(Rejection.class,
                () -> NodePatch.apply(node(), "[{\"op\": \"remove\", \"path\": \"/extra/none\"}]")).code());
        for (String path : new String[] {"/uuid", "/provision_state", "/reservation", "/name/x"}) {
            Rejection refused = assertThrows(Rejection.class,
                    () -> NodePatch.apply(node(), "[{\"op\": \"replace\", \"path\": \"" + path + "\", \"value\": \"x\"}]"));
            assertEquals(400, refused.code(), path);
        }
    }

    /** The driver may be replaced (the conductor checks it is one it has), never removed: Ironic's schema requires it. */
    @Test
    void theDriverIsReplacedNeverRemoved() {
        Map<String, Object> doc = node();
        doc.put("driver", "fake-hardware");
        NodePatch.apply(doc, "[{\"op\": \"replace\", \"path\": \"/driver\", \"value\": \"oneview\"}]");
        assertEquals("oneview", doc.get("driver"));
        Rejection removed = assertThrows(Rejection.class,
                () -> NodePatch.apply(doc, "[{\"op\": \"remove\", \"path\": \"/driver\"}]"));
        assertEquals(400, removed.code());
        assertEquals("Schema error for patch: 'driver' is a required property", removed.getMessage());
        assertEquals(400, assertThrows(Rejection.class,
                () -> NodePatch.apply(doc, "[{\"op\": \"replace\", \"path\": \"/driver/x\", \"value\": \"y\"}]")).code());
        assertEquals("oneview", doc.get("driver"));
    }

    /** Every writable field against every JSON type it must not take: each is a 400 that names the field. */
    @Test
    void wrongTypesAreRefusedNamingTheField() {
        Map<String, String[]> wrong = Map.of(
                "name", new String[] {"5", "true", "{}", "[]"},
                "description", new String[] {"1.5", "{\"a\": 1}"},
                "owner", new String[] {"[1]"},
                "lessee", new String[] {"false"},
                "resource_class", new String[] {"7"},
                "conductor_group", new String[] {"{}"},
                "instance_uuid", new String[] {"42"},
                "driver_info", new String[] {"\"text\"", "5", "[]", "null"},
                "properties", new String[] {"true", "null"},
                "retired", new String[] {"5", "{}", "[]"});
        wrong = new HashMap<>(wrong);
        wrong.put("driver", new String[] {"5", "null", "{}", "[\"fake-hardware\"]"});
        wrong.forEach((field, values) -> {
            for (String value : values) {
                String patch = "[{\"op\": \"add\", \"path\": \"/" + field + "\", \"value\": " + value + "}]";
                Rejection refused = assertThrows(Rejection.class, () -> NodePatch.apply(node(), patch), patch);
                assertEquals(400, refused.code(), patch);
                assertTrue(refused.getMessage().contains("field/attribute " + field), refused.getMessage());
            }
        });
    }
}
