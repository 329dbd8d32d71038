package io.ironflow.api.nodes;

import io.ironflow.api.errors.ApiError;
import io.ironflow.api.versions.Microversions;
import io.ironflow.api.versions.RequestedVersion;
import io.smallrye.mutiny.Uni;
import io.vertx.core.json.JsonObject;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;

/**
 * What inspection found on a node (Ironic's NodeInventoryController, API 1.81): {@code {"inventory", "plugin_data"}}
 * as the last inspection recorded them, which for fake-hardware is the record in the node's driver_internal_info
 * ({@code fake_hardware.inventory} and {@code .plugin_data}, written by {@code inspect.inspect_hardware}). A node
 * never inspected is 404 with Ironic's NodeInventoryNotFound message; below 1.81 the resource does not exist (404).
 */
@Path("/v1/nodes/{ident}/inventory")
@Produces(MediaType.APPLICATION_JSON)
public class NodeInventoryResource {

    private static final String PATH = "/v1/nodes/{ident}/inventory";

    private final Pool client;
    private final NodeReader reader;
    private final RequestedVersion version;

    NodeInventoryResource(Pool client, NodeReader reader, RequestedVersion version) {
        this.client = client;
        this.reader = reader;
        this.version = version;
    }

    @GET
    public Uni<Map<String, Object>> get(@PathParam("ident") String ident) {
        Microversions.requireResource("inventory", version.get(), PATH);
        return reader.require(ident).flatMap(node -> {
            UUID uuid = UUID.fromString(node.getUuid());
            return client.preparedQuery("SELECT driver_internal_info->'fake_hardware'->'inventory' AS inventory,"
                            + " driver_internal_info->'fake_hardware'->'plugin_data' AS plugin_data FROM nodes WHERE uuid = $1")
                    .execute(Tuple.of(uuid))
                    .map(rows -> {
                        Row row = rows.iterator().hasNext() ? rows.iterator().next() : null;
                        if (row == null || !(row.getValue("inventory") instanceof JsonObject inventory)) {
                            throw ApiError.notFound("Node inventory record for node " + uuid + " could not be found.");
                        }
                        Map<String, Object> body = new LinkedHashMap<>();
                        body.put("inventory", inventory.getMap());
                        body.put("plugin_data", row.getValue("plugin_data") instanceof JsonObject plugin ? plugin.getMap() : Map.of());
                        return body;
                    });
        });
    }
}
