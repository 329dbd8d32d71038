package io.ironflow.api.nodes;

import io.ironflow.api.QueryBooleans;
import io.ironflow.api.documents.IronicRendering;
import io.ironflow.api.errors.ApiError;
import io.ironflow.api.versions.Microversions;
import io.ironflow.api.versions.RequestedVersion;
import io.ironflow.schemas.SecretFields;
import io.smallrye.mutiny.Uni;
import io.vertx.core.json.JsonObject;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.UriInfo;
import java.net.URI;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;

/**
 * A node's BIOS settings (Ironic's NodeBiosController, API 1.40): what the hardware holds, as the fake-hardware
 * record in the node's driver_internal_info keeps it ({@code fake_hardware.bios_settings}, written by the
 * {@code bios.apply_configuration} and {@code bios.factory_reset} clean steps). Ironic's values are strings. The
 * settings are listed by name. The BIOS registry fields of 1.74 ({@code ?detail=True}, and always on a single setting) are null: fake-hardware's
 * BIOS has no registry, as Ironic's fake BIOS interface has none; per-setting times are not recorded (null).
 */
@Path("/v1/nodes/{ident}/bios")
@Produces(MediaType.APPLICATION_JSON)
public class NodeBiosResource {

    private static final String PATH = "/v1/nodes/{ident}/bios";
    /** Ironic's BIOS registry fields (1.74). */
    private static final List<String> REGISTRY = List.of("attribute_type", "allowable_values", "lower_bound",
            "max_length", "min_length", "read_only", "reset_required", "unique", "upper_bound");

    private final Pool client;
    private final NodeReader reader;
    private final RequestedVersion version;

    NodeBiosResource(Pool client, NodeReader reader, RequestedVersion version) {
        this.client = client;
        this.reader = reader;
        this.version = version;
    }

    @GET
    public Uni<Map<String, Object>> list(@PathParam("ident") String ident, @QueryParam("detail") String detail,
            @Context UriInfo uri) {
        Microversions.requireResource("bios", version.get(), PATH);
        boolean detailed = detail != null && QueryBooleans.parse(detail, "Invalid value for detail: ");
        if (detailed) {
            Microversions.requireFeature("bios registry fields", version.get());
        }
        return settings(ident).map(node -> {
            List<Map<String, Object>> bios = new ArrayList<>();
            node.settings().forEach((name, value) -> bios.add(document(node.uuid(), name, value, detailed, uri.getBaseUri())));
            return Map.of("bios", bios);
        });
    }

    @GET
    @Path("/{setting}")
    public Uni<Map<String, Object>> show(@PathParam("ident") String ident, @PathParam("setting") String setting,
            @Context UriInfo uri) {
        Microversions.requireResource("bios", version.get(), PATH);
        boolean registry = Microversions.allows("bios registry fields", version.get());
        return settings(ident).map(node -> {
            if (!node.settings().containsKey(setting)) {
                throw ApiError.notFound("Node " + node.uuid() + " doesn't have a BIOS setting '" + setting + "'");
            }
            return Map.of(setting, document(node.uuid(), setting, node.settings().get(setting), registry, uri.getBaseUri()));
        });
    }

    private record NodeBios(UUID uuid, Map<String, Object> settings) {
    }

    private Uni<NodeBios> settings(String ident) {
        return reader.require(ident, "baremetal:node:bios:get").flatMap(node -> {
            UUID uuid = UUID.fromString(node.getUuid());
            return client.preparedQuery("SELECT driver_internal_info->'fake_hardware'->'bios_settings' AS bios"
                            + " FROM nodes WHERE uuid = $1").execute(Tuple.of(uuid))
                    .map(rows -> {
                        Object bios = rows.iterator().hasNext() ? rows.iterator().next().getValue("bios") : null;
                        Map<String, Object> settings = bios instanceof JsonObject json ? new TreeMap<>(json.getMap())
                                : Map.of();
                        return new NodeBios(uuid, settings);
                    });
        });
    }

    private static Map<String, Object> document(UUID node, String name, Object value, boolean registry, URI base) {
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("name", name);
        // a setting that names a secret (AdminPassword...) is masked as a driver_info key would be
        doc.put("value", value == null ? null : SecretFields.mask(Collections.singletonMap(name, (Object) String.valueOf(value))).get(name));
        if (registry) {
            doc.put("created_at", null);
            doc.put("updated_at", null);
            REGISTRY.forEach(field -> doc.put(field, null));
        }
        doc.put("links", IronicRendering.links(base, "nodes/" + node + "/bios/" + name));
        return doc;
    }
}
