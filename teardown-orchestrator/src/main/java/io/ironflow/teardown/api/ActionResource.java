package io.ironflow.teardown.api;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ironflow.auth.HttpAuthentication;
import io.ironflow.policy.Principal;
import io.ironflow.teardown.actions.Action;
import io.ironflow.teardown.actions.ActionRequests;
import io.ironflow.teardown.actions.ActionStore;
import io.ironflow.teardown.actions.Lifecycle;
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
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * Shipyard's action API: {@code POST /api/v1.0/actions} (201 with the action entity and {@code Location}; 400 for
 * a bad name or body; 409 when a pre-run validation fails or a node already has a running action),
 * {@code GET /api/v1.0/actions[/{id}]} with each step's state, times, message and url,
 * {@code GET /api/v1.0/actions/{id}/steps/{step}} (one step as Shipyard shows a task), and
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

    /**
     * Shipyard's {@code GET /api/v1.0/actions/{id}/steps/{step}}: one step, as Shipyard shows an Airflow task (its
     * {@code task_id}, {@code dag_id} the action's name, {@code execution_date}, {@code start_date},
     * {@code end_date}, {@code duration} in seconds, {@code state} in Airflow's words ({@link #airflowState}),
     * {@code index}, {@code notes}). A step Ironflow
     * runs once per target node is one task over all of them, as in Shipyard: its state combined
     * ({@link Lifecycle#combined}), from the first node's start to the last one's end, and each node's own run in
     * {@code nodes}. 404 for an unknown action or step.
     */
    @GET
    @Path("/{id}/steps/{step}")
    public Map<String, Object> step(@PathParam("id") String id, @PathParam("step") String stepId) {
        Action action = store.find(id);
        if (action == null) {
            throw StepFailure.notFound("action " + id + " does not exist");
        }
        List<Action.Step> runs = action.steps().stream().filter(s -> s.step().equals(stepId)).toList();
        if (runs.isEmpty()) {
            throw StepFailure.notFound("action " + id + " has no step " + stepId);
        }
        String state = Lifecycle.combined(runs.stream().map(Action.Step::status).toList());
        Instant started = runs.stream().map(Action.Step::startedAt).filter(Objects::nonNull).min(Instant::compareTo).orElse(null);
        boolean done = !state.equals(Lifecycle.STEP_RUNNING) && !state.equals(Lifecycle.STEP_PENDING);
        Instant finished = done ? runs.stream().map(Action.Step::finishedAt).filter(Objects::nonNull).max(Instant::compareTo)
                .orElse(null) : null;
        Map<String, Object> step = new LinkedHashMap<>();
        step.put("task_id", stepId);
        step.put("dag_id", action.name());
        step.put("execution_date", action.createdAt().toString());
        step.put("start_date", text(started));
        step.put("end_date", text(finished));
        step.put("duration", started == null || finished == null ? null : Duration.between(started, finished).toMillis() / 1000.0);
        step.put("state", airflowState(state));
        step.put("index", stepIndex(action, stepId));
        step.put("nodes", runs.stream().filter(s -> s.node() != null).map(ActionResource::run).toList());
        step.put("notes", List.of());
        return step;
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
        entity.put("datetime", action.createdAt().toString());
        entity.put("dag_id", action.name());
        entity.put("dag_execution_date", action.createdAt().toString());
        entity.put("dag_status", dagStatus(action.lifecycle()));
        entity.put("action_lifecycle", action.lifecycle());
        entity.put("context_marker", action.contextMarker());
        entity.put("steps", action.steps().stream().map(s -> {
            Map<String, Object> step = new LinkedHashMap<>();
            step.put("index", s.seq());
            step.put("id", s.step());
            step.put("url", "/actions/" + action.id() + "/steps/" + s.step());
            step.putAll(run(s));
            return step;
        }).toList());
        return entity;
    }

    /** One node's run of a step. */
    private static Map<String, Object> run(Action.Step s) {
        Map<String, Object> run = new LinkedHashMap<>();
        run.put("node", s.node());
        run.put("state", airflowState(s.status()));
        run.put("started", text(s.startedAt()));
        run.put("finished", text(s.finishedAt()));
        run.put("message", s.message());
        return run;
    }

    /**
     * A step's status in Airflow's words, as Shipyard passes a task instance's state on (and its CLI counts
     * "success" and "failed"): success, failed, running, skipped, and none (null) for a task not yet begun. Stored
     * steps, events and metrics keep Ironflow's words.
     */
    static String airflowState(String status) {
        return switch (status) {
            case Lifecycle.STEP_SUCCEEDED -> "success";
            case Lifecycle.STEP_PENDING -> null;
            default -> status; // running, failed and skipped are Airflow's words too
        };
    }

    /** The DAG run's state behind an action_lifecycle: Shipyard's DAG_STATE_MAPPING read backwards. */
    static String dagStatus(String lifecycle) {
        return switch (lifecycle) {
            case Lifecycle.PENDING -> "queued";
            case Lifecycle.PROCESSING -> "running";
            case Lifecycle.COMPLETE -> "success";
            case Lifecycle.FAILED -> "failed";
            case Lifecycle.PAUSED -> "paused";
            default -> null;
        };
    }

    /** A task's place among the action's distinct steps, from 1, as Shipyard numbers a DAG's tasks. */
    private static int stepIndex(Action action, String stepId) {
        return action.steps().stream().map(Action.Step::step).distinct().toList().indexOf(stepId) + 1;
    }

    private static String text(Instant instant) {
        return instant == null ? null : instant.toString();
    }

}
