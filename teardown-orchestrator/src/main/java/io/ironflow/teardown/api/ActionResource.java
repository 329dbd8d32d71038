package io.ironflow.teardown.api;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ironflow.auth.HttpAuthentication;
import io.ironflow.policy.Principal;
import io.ironflow.teardown.actions.Action;
import io.ironflow.teardown.actions.ActionRequests;
import io.ironflow.teardown.actions.ActionStore;
import io.ironflow.teardown.status.StepFailure;
import io.quarkus.vertx.http.runtime.CurrentVertxRequest;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.net.URI;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * Shipyard's action API: {@code POST /api/v1.0/actions} (201 with the action entity and {@code Location}; 400 for
 * a bad name or body; 409 when a pre-run validation fails or a node already has a running action),
 * {@code GET /api/v1.0/actions[/{id}]} with each step's state, times and message, and
 * {@code POST /api/v1.0/actions/{id}/control/{pause|unpause|stop}} (202, or 409 when the action's state does
 * not allow it). The action's {@code user} is the authenticated caller, its {@code context_marker} the caller's
 * X-Context-Marker if that is a UUID, else a new one.
 */
@Path("/api/v1.0/actions")
@Produces(MediaType.APPLICATION_JSON)
public class ActionResource {

    @Inject
    ActionRequests requests;

    @Inject
    ActionStore store;

    @Inject
    ObjectMapper json;

    @Inject
    CurrentVertxRequest request;

    @POST
    @Consumes(MediaType.WILDCARD)
    public Response create(String body, @HeaderParam("X-Context-Marker") String marker) {
        Map<?, ?> request;
        try {
            request = body == null || body.isBlank() ? null : json.readValue(body, Map.class);
        } catch (JsonProcessingException e) {
            throw StepFailure.badRequest("the body is not a JSON action: " + e.getOriginalMessage());
        }
        if (request == null) {
            throw StepFailure.badRequest("the body must be {\"name\": ..., \"parameters\": {...}}");
        }
        String id = requests.create(request.get("name"), request.get("parameters"), user(), contextMarker(marker));
        return Response.created(URI.create("/api/v1.0/actions/" + id)).entity(entity(store.find(id))).build();
    }

    @GET
    public List<Map<String, Object>> list() {
        return store.all().stream().map(ActionResource::entity).toList();
    }

    @GET
    @Path("/{id}")
    public Map<String, Object> get(@PathParam("id") String id) {
        Action action = store.find(id);
        if (action == null) {
            throw StepFailure.notFound("action " + id + " does not exist");
        }
        return entity(action);
    }

    @POST
    @Path("/{id}/control/{verb}")
    public Response control(@PathParam("id") String id, @PathParam("verb") String verb) {
        if (requests.control(id, verb)) {
            return Response.accepted().build();
        }
        String message = "action " + id + " cannot be " + verb + "d in its present state (" + store.find(id).lifecycle() + ")";
        throw new StepFailure(409, "Conflict", message);
    }

    /**
     * Who asks: the caller io.ironflow.auth authenticated (ShipyardAuthentication), as Shipyard takes the user from the
     * request's authenticated context; a client's X-User-Name is not believed. Under noauth nobody is authenticated:
     * noauth's principal, "anonymous". No principal at all (the check not installed) is recorded as "unknown", not
     * as anybody in particular.
     */
    private String user() {
        Principal who = request.getCurrent() == null ? null : HttpAuthentication.principal(request.getCurrent());
        return who == null || who.user() == null || who.user().isBlank() ? "unknown" : who.user();
    }

    private static final Pattern UUID_TEXT = Pattern.compile("[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}");

    /** The caller's X-Context-Marker when it is a UUID; else (absent or not one) a new one, as Shipyard replaces it. */
    static String contextMarker(String marker) {
        return marker != null && UUID_TEXT.matcher(marker).matches() ? marker : UUID.randomUUID().toString();
    }

    static Map<String, Object> entity(Action action) {
        Map<String, Object> entity = new LinkedHashMap<>();
        entity.put("id", action.id());
        entity.put("name", action.name());
        entity.put("parameters", action.parameters());
        entity.put("user", action.user());
        entity.put("timestamp", action.createdAt().toString());
        entity.put("action_lifecycle", action.lifecycle());
        entity.put("context_marker", action.contextMarker());
        entity.put("steps", action.steps().stream().map(s -> {
            Map<String, Object> step = new LinkedHashMap<>();
            step.put("index", s.seq());
            step.put("id", s.step());
            step.put("node", s.node());
            step.put("state", s.status());
            step.put("started", s.startedAt() == null ? null : s.startedAt().toString());
            step.put("finished", s.finishedAt() == null ? null : s.finishedAt().toString());
            step.put("message", s.message());
            return step;
        }).toList());
        return entity;
    }

}
