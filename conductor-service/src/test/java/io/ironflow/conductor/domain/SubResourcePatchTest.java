package io.ironflow.conductor.domain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The one patch applier behind the port and portgroup PATCH: Ironic's rules, the document given never changed. */
class SubResourcePatchTest {

    private static Map<String, Object> port() {
        Map<String, Object> port = new LinkedHashMap<>();
        port.put("uuid", "p1");
        port.put("address", "52:54:00:00:00:01");
        port.put("pxe_enabled", false);
        port.put("extra", Map.of("a", 1));
        port.put("local_link_connection", Map.of());
        return port;
    }

    private static int refused(Map<String, Object> doc, String patch) {
        return assertThrows(Rejection.class, () -> Port.patch(doc, patch)).code();
    }

    @Test
    void writableFieldsDictionaryKeysAndDefaultsOnRemoval() {
        Map<String, Object> before = port();
        Map<String, Object> after = Port.patch(before, """
                [{"op": "replace", "path": "/address", "value": "52:54:00:00:00:AA"},
                 {"op": "add", "path": "/extra/b", "value": "x"},
                 {"op": "remove", "path": "/extra/a"},
                 {"op": "remove", "path": "/pxe_enabled"}]""");
        assertEquals("52:54:00:00:00:aa", after.get("address"));
        assertEquals(Map.of("b", "x"), after.get("extra"));
        assertEquals(true, after.get("pxe_enabled"));
        assertEquals(false, Port.patch(before, "[{\"op\": \"add\", \"path\": \"/pxe_enabled\", \"value\": \"False\"}]")
                .get("pxe_enabled"), "the CLI's --pxe-disabled sends text");
        assertEquals(port(), before, "the given document is not changed");
        Map<String, Object> nulled = Port.patch(before, """
                [{"op": "add", "path": "/extra/c", "value": null},
                 {"op": "remove", "path": "/extra/c"}]""");
        assertEquals(Map.of("a", 1), nulled.get("extra"), "a member set to null is removable by its path");
        Map<String, Object> escaped = Port.patch(before, """
                [{"op": "add", "path": "/extra/rack~1slot", "value": 1},
                 {"op": "add", "path": "/extra/~0home", "value": 2}]""");
        assertEquals(Map.of("a", 1, "rack/slot", 1, "~home", 2), escaped.get("extra"), "RFC 6901 escapes in a member's name");
        assertEquals(Map.of("a", 1), Port.patch(escaped, """
                [{"op": "remove", "path": "/extra/rack~1slot"}, {"op": "remove", "path": "/extra/~0home"}]""").get("extra"));
    }

    @Test
    void readOnlyMandatoryMalformedAndMistypedAreRefused() {
        assertEquals(400, refused(port(), "[{\"op\": \"replace\", \"path\": \"/uuid\", \"value\": \"p2\"}]"));
        assertEquals(400, refused(port(), "[{\"op\": \"remove\", \"path\": \"/address\"}]"));
        assertEquals(400, refused(port(), "[{\"op\": \"move\", \"path\": \"/address\"}]"));
        assertEquals(400, refused(port(), "[{\"op\": \"add\", \"path\": \"/pxe_enabled/x\", \"value\": 1}]"));
        assertEquals(400, refused(port(), "[{\"op\": \"replace\", \"path\": \"/extra\", \"value\": \"text\"}]"));
        assertEquals(400, refused(port(), "[{\"op\": \"replace\", \"path\": \"/pxe_enabled\", \"value\": \"maybe\"}]"));
        assertEquals(400, refused(port(), "[{\"op\": \"remove\", \"path\": \"/extra/none\"}]"));
        assertEquals(400, refused(port(), "[{\"op\": \"replace\", \"path\": \"/extra/none\", \"value\": 1}]"),
                "replace needs a member to replace (RFC 6902), add does not");
        // no value at all is not a null value: it would clear the field (a port leaving its portgroup)
        assertEquals(400, refused(port(), "[{\"op\": \"replace\", \"path\": \"/portgroup_uuid\"}]"));
        assertEquals(400, refused(port(), "[{\"op\": \"add\", \"path\": \"/physical_network\"}]"));
        assertEquals(400, refused(port(), "[{\"op\": \"add\", \"path\": \"/extra/b\"}]"));
        assertEquals(400, refused(port(), "{}"));
        assertEquals(400, refused(port(), "not json"));
    }

    @Test
    void portgroupsShareTheRulesWithTheirOwnFields() {
        Map<String, Object> group = new LinkedHashMap<>(Map.of("uuid", "g1", "mode", "active-backup",
                "standalone_ports_supported", false, "properties", Map.of()));
        Map<String, Object> after = Portgroup.patch(group, """
                [{"op": "add", "path": "/standalone_ports_supported", "value": "yes"},
                 {"op": "add", "path": "/properties/miimon", "value": 100}]""");
        assertEquals(true, after.get("standalone_ports_supported"));
        assertEquals(Map.of("miimon", 100), after.get("properties"));
        Rejection mandatory = assertThrows(Rejection.class,
                () -> Portgroup.patch(group, "[{\"op\": \"remove\", \"path\": \"/mode\"}]"));
        assertEquals("'/mode' is a mandatory attribute and can not be removed", mandatory.getMessage());
        assertEquals(400, assertThrows(Rejection.class,
                () -> Portgroup.patch(group, "[{\"op\": \"add\", \"path\": \"/name\", \"value\": \"bad name!\"}]")).code());
    }
}
