package io.ironflow.api.drivers;

import io.ironflow.api.documents.IronicRendering;
import java.net.URI;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Ironic's driver representation (api-ref driver-get-response, drivers-list-response). */
public final class DriverDocument {

    /** The interface types of a driver (and of a node's {@code <type>_interface} fields), in Ironic's order. */
    public static final List<String> INTERFACE_TYPES = List.of("bios", "boot", "console", "deploy", "inspect", "management",
            "network", "power", "raid", "rescue", "storage", "vendor");

    /** Every field of a detailed driver document, for Ironic 1.77's {@code ?fields=}. */
    static final List<String> FIELDS = fields();

    private DriverDocument() {
    }

    private static List<String> fields() {
        List<String> fields = new ArrayList<>(List.of("name", "hosts", "type"));
        for (String type : INTERFACE_TYPES) {
            fields.add("default_" + type + "_interface");
            fields.add("enabled_" + type + "_interfaces");
        }
        fields.addAll(List.of("links", "properties"));
        return List.copyOf(fields);
    }

    /** {@code name, hosts, type, links, properties}; {@code detail} adds default_/enabled_ per interface type. */
    static Map<String, Object> of(RegisteredDriver driver, URI base, boolean detail) {
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("name", driver.name());
        doc.put("hosts", driver.hosts());
        doc.put("type", "dynamic"); // every Ironflow driver is a hardware type; classic drivers are gone from Ironic too
        if (detail) {
            for (String type : INTERFACE_TYPES) {
                var entry = driver.interfaces() == null ? null : driver.interfaces().getJsonObject(type);
                doc.put("default_" + type + "_interface", entry == null ? null : entry.getString("default"));
                doc.put("enabled_" + type + "_interfaces", entry == null || entry.getJsonArray("enabled") == null
                        ? null : entry.getJsonArray("enabled").getList());
            }
        }
        doc.put("links", IronicRendering.links(base, "drivers/" + driver.name()));
        doc.put("properties", IronicRendering.links(base, "drivers/" + driver.name() + "/properties"));
        return doc;
    }
}
