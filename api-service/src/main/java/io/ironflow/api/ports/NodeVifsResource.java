package io.ironflow.api.ports;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ironflow.api.errors.ApiError;
import io.ironflow.api.nodes.JsonBody;
import io.ironflow.api.nodes.NodeCommands;
import io.ironflow.api.nodes.NodeReader;
import io.ironflow.api.versions.Microversions;
import io.ironflow.api.versions.RequestedVersion;
import io.ironflow.events.AttachVif;
import io.ironflow.events.DetachVif;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.Iterator;
import java.util.Map;
import org.jboss.resteasy.reactive.RestResponse;

/**
 * A node's VIFs ({@code /v1/nodes/{ident}/vifs}, Ironic 1.28). A VIF
 * is attached by the conductor to a free port of the node, whose {@code internal_info.tenant_vif_port_id} then
 * holds it (Ironic's VIFPortIDMixin); the list reads them back from the ports.
 */
@Path("/v1/nodes/{ident}/vifs")
@Produces(MediaType.APPLICATION_JSON)
public class NodeVifsResource {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final PortReader ports;
    private final NodeReader nodes;
    private final NodeCommands commands;
    private final RequestedVersion version;

    NodeVifsResource(PortReader ports, NodeReader nodes, NodeCommands commands, RequestedVersion version) {
        this.ports = ports;
        this.nodes = nodes;
        this.commands = commands;
        this.version = version;
    }

    @GET
    public Uni<Map<String, Object>> vifs(@PathParam("ident") String ident) {
        Microversions.requireResource("vifs", version.get(), "/v1/nodes/{ident}/vifs");
        return nodes.requireUuid(ident, "baremetal:node:vif:list").flatMap(ports::ofNode).map(list -> Map.of("vifs",
                list.stream().map(p -> vif(p.port().getInternalInfo())).filter(v -> v != null).map(v -> Map.of("id", v)).toList()));
    }

    /** {@code {"id": "<vif>", ...}}: 204 once the conductor attached it to a free port. */
    @POST
    @Consumes(MediaType.WILDCARD)
    public Uni<RestResponse<Void>> attach(@PathParam("ident") String ident, String body) {
        Microversions.requireResource("vifs", version.get(), "/v1/nodes/{ident}/vifs");
        ObjectNode vif = JsonBody.object(body, "the VIF");
        for (Iterator<String> names = vif.fieldNames(); names.hasNext(); ) {
            String field = names.next();
            // port_uuid/portgroup_uuid (1.67) choose the port: not built (docs/api-compat.md). Any other member is
            // taken and left alone, as Ironic's VIF schema allows (the CLI's --vif-info key=value sends them).
            if (field.equals("port_uuid") || field.equals("portgroup_uuid")) {
                throw ApiError.badRequest("\"" + field + "\" is not supported by Ironflow in a VIF attach.");
            }
        }
        String id = JsonBody.requiredText(vif, "id");
        return commands.send(ident, AttachVif.newBuilder().setVifId(id).build()).map(result -> RestResponse.noContent());
    }

    @DELETE
    @Path("/{vif}")
    public Uni<RestResponse<Void>> detach(@PathParam("ident") String ident, @PathParam("vif") String vif) {
        Microversions.requireResource("vifs", version.get(), "/v1/nodes/{ident}/vifs");
        return commands.send(ident, DetachVif.newBuilder().setVifId(vif).build()).map(result -> RestResponse.noContent());
    }

    private static String vif(String internalInfo) {
        try {
            JsonNode info = JSON.readTree(internalInfo);
            JsonNode id = info.get("tenant_vif_port_id");
            return id == null || id.isNull() ? null : id.asText();
        } catch (Exception e) {
            throw new IllegalStateException("stored internal_info is not JSON: " + internalInfo, e);
        }
    }
}
