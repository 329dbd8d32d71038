package io.ironflow.api.nodes;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ironflow.api.errors.ApiError;
import io.ironflow.events.ValidateNode;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code GET /v1/nodes/{ident}/validate}: Ironic asks the node's conductor to validate every driver interface;
 * here the question is a {@code ValidateNode} intent and the conductor's answer carries the document
 * ({@code {"<interface>": {"result": true|false|null, "reason"?: ...}}}) in {@code IntentResult.validation}.
 */
@Path("/v1/nodes/{ident}/validate")
@Produces(MediaType.APPLICATION_JSON)
public class NodeValidateResource {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final NodeCommands commands;

    NodeValidateResource(NodeCommands commands) {
        this.commands = commands;
    }

    @GET
    public Uni<Map<String, Object>> validate(@PathParam("ident") String ident) {
        return commands.send(ident, ValidateNode.newBuilder().build()).map(result -> {
            if (result.getValidation() == null) {
                throw ApiError.unavailable("The conductor answered the validation of node " + result.getNodeUuid()
                        + " without a result; it may be older than this API. Please retry later.");
            }
            try {
                return JSON.readValue(result.getValidation(), new TypeReference<LinkedHashMap<String, Object>>() { });
            } catch (Exception e) {
                throw new IllegalStateException("the conductor's validation is not a JSON object", e);
            }
        });
    }
}
