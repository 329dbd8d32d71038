package io.ironflow.api.nodes;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ironflow.api.errors.ApiError;
import io.ironflow.api.versions.Microversions;
import io.ironflow.api.versions.RequestedVersion;
import io.ironflow.events.ChangeTraits;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.UriInfo;
import java.net.URI;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.jboss.resteasy.reactive.RestResponse;

/**
 * A node's traits (Ironic's NodeTraitsController, API 1.37): read from the node table, changed by a ChangeTraits
 * intent. The API checks the body's shape; the trait names (os-traits or {@code CUSTOM_[A-Z0-9_]+}, at most 255
 * characters, 50 a node) are the conductor's rule, so every intent sender meets it. Changes answer 204.
 */
@Path("/v1/nodes/{ident}/traits")
@Produces(MediaType.APPLICATION_JSON)
public class NodeTraitsResource {

    private static final String PATH = "/v1/nodes/{ident}/traits";

    private final NodeReader reader;
    private final NodeCommands commands;
    private final RequestedVersion version;

    NodeTraitsResource(NodeReader reader, NodeCommands commands, RequestedVersion version) {
        this.reader = reader;
        this.commands = commands;
        this.version = version;
    }

    @GET
    public Uni<Map<String, Object>> list(@PathParam("ident") String ident) {
        Microversions.requireResource("traits", version.get(), PATH);
        return reader.require(ident, "baremetal:node:traits:list").map(node -> Map.of("traits", List.copyOf(node.getTraits())));
    }

    /** {@code {"traits": [...]}} replaces every trait of the node. */
    @PUT
    @Consumes(MediaType.WILDCARD)
    public Uni<RestResponse<Void>> set(@PathParam("ident") String ident, String body, @Context UriInfo uri) {
        Microversions.requireResource("traits", version.get(), PATH);
        return change(ident, "set", traitsOf(body), uri);
    }

    /** Adds one trait; Ironic takes no body here. */
    @PUT
    @Path("/{trait}")
    @Consumes(MediaType.WILDCARD)
    public Uni<RestResponse<Void>> add(@PathParam("ident") String ident, @PathParam("trait") String trait, String body,
            @Context UriInfo uri) {
        Microversions.requireResource("traits", version.get(), PATH);
        if (body != null && !body.isBlank() && !body.trim().equals("null")) { // clients may send a JSON null
            throw ApiError.badRequest("A single trait may be added via PUT /v1/nodes/<node identifier>/traits/<trait>"
                    + " with no body, or a list of traits may be set via PUT /v1/nodes/<node identifier>/traits with a"
                    + " body.");
        }
        return change(ident, "add", List.of(trait), uri);
    }

    @DELETE
    public Uni<RestResponse<Void>> removeAll(@PathParam("ident") String ident) {
        Microversions.requireResource("traits", version.get(), PATH);
        return commands.send(ident, command("remove", List.of())).map(result -> RestResponse.noContent());
    }

    @DELETE
    @Path("/{trait}")
    public Uni<RestResponse<Void>> remove(@PathParam("ident") String ident, @PathParam("trait") String trait) {
        Microversions.requireResource("traits", version.get(), PATH);
        return commands.send(ident, command("remove", List.of(trait))).map(result -> RestResponse.noContent());
    }

    private Uni<RestResponse<Void>> change(String ident, String operation, List<String> traits, UriInfo uri) {
        return commands.send(ident, command(operation, traits)).map(result -> RestResponse.ResponseBuilder.<Void>noContent()
                .location(URI.create(uri.getBaseUri() + "v1/nodes/" + result.getNodeUuid() + "/traits")).build());
    }

    private static ChangeTraits command(String operation, List<String> traits) {
        return ChangeTraits.newBuilder().setOperation(operation).setTraits(traits).build();
    }

    /** The body of PUT /traits: {@code {"traits": ["CUSTOM_A", ...]}}, strings only. */
    private static List<String> traitsOf(String body) {
        ObjectNode node = JsonBody.object(body, "the node's traits");
        for (Iterator<String> names = node.fieldNames(); names.hasNext(); ) {
            String field = names.next();
            if (!field.equals("traits")) {
                throw JsonBody.unknown(field, "traits");
            }
        }
        JsonNode traits = node.get("traits");
        if (traits == null || traits.isNull()) {
            throw JsonBody.missing("traits");
        }
        if (!traits.isArray()) {
            throw JsonBody.invalid("traits", traits, "a list of strings");
        }
        List<String> names = new ArrayList<>();
        for (JsonNode trait : traits) {
            if (!trait.isTextual()) {
                throw JsonBody.invalid("traits", trait, "a list of strings");
            }
            names.add(trait.textValue());
        }
        return names;
    }
}
