package io.ironflow.api.nodes;

import io.ironflow.api.auth.Access;
import io.ironflow.api.drivers.DriverReader;
import io.ironflow.api.errors.ApiError;
import io.ironflow.policy.NodeOwnership;
import io.ironflow.policy.Policy;
import io.ironflow.policy.Principal;
import io.ironflow.schemas.SecretFields;
import io.smallrye.mutiny.Uni;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * {@code GET /v1/nodes/{ident}/cleaning/steps?min_priority=N} (seed 001): the clean steps of the node's driver
 * with priority >= N (default 0), highest priority first, as a top-level JSON array. The catalogue is the one
 * the live conductors registered for the driver; for steps an agent reports (fake-hardware with
 * {@code driver_info.fake_agent_steps: true}) it is the conductor's cache in driver_internal_info
 * ({@code agent_cached_clean_steps}), and until the node's first cleaning fills it the answer is 202 with
 * {@code Retry-Request-After} (seconds; -1 when nobody knows when the agent will run). A caller who may not see
 * the node ({@code baremetal:node:get}) is answered 404, as on every other /v1/nodes/{ident} path.
 */
@Path("/v1/nodes/{ident}/cleaning")
@Produces(MediaType.APPLICATION_JSON)
public class NodeCleaningResource {

    /** fake-hardware's driver_info switch for agent-reported steps (conductor: FakeHardware.AGENT_STEPS). */
    static final String AGENT_STEPS = "fake_agent_steps";
    /** Ironic's driver_internal_info key for the agent's steps, {"<interface>": [step, ...]}. */
    static final String AGENT_CACHE = "agent_cached_clean_steps";
    /** The rule that guards driver_internal_info, where the agent's steps are cached. */
    private static final String DRIVER_INTERNAL_INFO = "baremetal:node:get:driver_internal_info";
    /** States in which the agent is about to report its steps: a retry soon should find them. */
    private static final Set<String> CLEANING = Set.of("cleaning", "clean wait");
    private static final int RETRY_WHILE_CLEANING = 10;

    private final DriverReader drivers;
    private final Pool client;
    private final Access access;

    NodeCleaningResource(DriverReader drivers, Pool client, Access access) {
        this.drivers = drivers;
        this.client = client;
        this.access = access;
    }

    @GET
    @Path("/steps")
    public Uni<Response> steps(@PathParam("ident") String ident, @QueryParam("min_priority") String minPriority) {
        int min = minPriority(minPriority);
        Principal who = access.caller();
        UUID uuid = NodeReader.parseUuid(ident);
        // One read: the node (by uuid or name, as every /v1/nodes/{ident} path) with what decides the answer.
        return client.preparedQuery("SELECT uuid, owner, lessee, driver, provision_state, driver_info -> '" + AGENT_STEPS + "' AS agent,"
                        + " driver_internal_info -> '" + AGENT_CACHE + "' AS cached FROM nodes WHERE "
                        + (uuid != null ? "uuid" : "name") + " = $1")
                .execute(Tuple.of(uuid != null ? uuid : ident))
                .flatMap(rows -> {
                    if (!rows.iterator().hasNext()) {
                        throw ApiError.notFound("Node " + ident + " could not be found.");
                    }
                    var row = rows.iterator().next();
                    access.require(who, Set.of(Policy.NODE_GET),
                            new NodeOwnership(row.getString("owner"), row.getString("lessee")), ident);
                    Object cached = row.getValue("cached");
                    if (cached instanceof JsonObject byInterface) {
                        // the agent's steps are driver_internal_info's: its readers' only (a lessee is refused them)
                        access.require(who, Set.of(DRIVER_INTERNAL_INFO),
                                new NodeOwnership(row.getString("owner"), row.getString("lessee")), ident);
                        List<Object> steps = new ArrayList<>();
                        byInterface.forEach(entry -> {
                            if (entry.getValue() instanceof JsonArray list) {
                                list.forEach(steps::add);
                            }
                        });
                        return Uni.createFrom().item(ok(steps, min));
                    }
                    if (Boolean.TRUE.equals(row.getValue("agent"))) {
                        return Uni.createFrom().item(notYet(row.getUUID("uuid").toString(), row.getString("provision_state")));
                    }
                    String driver = row.getString("driver");
                    return drivers.find(driver).map(registered -> {
                        if (registered == null) {
                            throw ApiError.badRequest("No valid host was found. Reason: No conductor service registered "
                                    + "which supports driver " + driver + ".");
                        }
                        return ok(registered.cleanSteps() == null ? List.of() : registered.cleanSteps().getList(), min);
                    });
                });
    }

    private static int minPriority(String value) {
        if (value == null) {
            return 0;
        }
        try {
            int min = Integer.parseInt(value.trim());
            if (min >= 0) {
                return min;
            }
        } catch (NumberFormatException e) {
            // answered below
        }
        throw ApiError.badRequest("Invalid value for min_priority: '" + value + "'. It must be a non-negative integer.");
    }

    /** Steps with priority >= min, highest first; a stable sort keeps the catalogue's order among equals. */
    private static Response ok(List<?> steps, int min) {
        List<Map<String, Object>> selected = steps.stream()
                .map(NodeCleaningResource::asMap)
                .map(SecretFields::mask) // an agent's step may carry argument values
                .map(NodeCleaningResource::ordered)
                .filter(step -> priority(step) >= min)
                .sorted(Comparator.comparingInt(NodeCleaningResource::priority).reversed())
                .toList();
        return Response.ok(selected, MediaType.APPLICATION_JSON_TYPE).build();
    }

    private static Response notYet(String uuid, String provisionState) {
        int retry = CLEANING.contains(provisionState) ? RETRY_WHILE_CLEANING : -1;
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("message", "The clean steps of node " + uuid + " are not available yet: its agent reports them when "
                + "the node is cleaned" + (retry < 0 ? ", and it is not known when that will be." : "; retry in " + retry + " seconds."));
        return Response.status(202).type(MediaType.APPLICATION_JSON_TYPE).header("Retry-Request-After", retry).entity(body).build();
    }

    /** The step's keys in seed 001's order (jsonb keeps its own); an argument's as name, description, required. */
    private static Map<String, Object> ordered(Map<String, Object> step) {
        Map<String, Object> out = new LinkedHashMap<>();
        for (String key : List.of("interface", "step", "priority", "abortable", "args")) {
            if (step.containsKey(key)) {
                out.put(key, step.get(key));
            }
        }
        if (out.get("args") instanceof List<?> args) {
            out.put("args", args.stream().map(arg -> {
                Map<String, Object> a = asMap(arg instanceof JsonObject json ? json : arg);
                Map<String, Object> ordered = new LinkedHashMap<>();
                for (String key : List.of("name", "description", "required")) {
                    ordered.put(key, a.get(key));
                }
                a.forEach(ordered::putIfAbsent);
                return ordered;
            }).toList());
        }
        step.forEach(out::putIfAbsent);
        return out;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> asMap(Object step) {
        return step instanceof JsonObject json ? json.getMap() : (Map<String, Object>) step;
    }

    private static int priority(Map<String, Object> step) {
        return step.get("priority") instanceof Number n ? n.intValue() : 0;
    }
}
