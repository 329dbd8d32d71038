package io.ironflow.dashboard;

import io.smallrye.mutiny.Multi;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.jboss.resteasy.reactive.RestStreamElementType;

/**
 * The dashboard's JSON for its page: counts, a filtered node table, one node with its timeline, and a stream of
 * {@link Tick}s over Server-Sent Events.
 *
 * <p>Contract: everything comes from the {@link NodeBoard} in memory; nothing here reads the database or calls
 * another service. Bad query values are answered 400 with {@code {"error_message": ...}}; a table page holds at
 * most {@value #MAX_LIMIT} rows. The stream sends a tick at once, then one every {@value #TICK_MILLIS} ms in which
 * something changed, and a heartbeat tick every 15 s otherwise, so a browser sees a change within a second. At most
 * {@code ironflow.dashboard.max-streams} streams are open at once ({@link StreamSlots}); one more is 503 with
 * {@code {"error_message": ...}}.
 */
@Path("/api")
@Produces(MediaType.APPLICATION_JSON)
public class BoardResource {

    static final int MAX_LIMIT = 1000;
    static final long TICK_MILLIS = 250;
    private static final int EVENTS_PER_TICK = 100;
    private static final long HEARTBEAT_TICKS = 60;

    @Inject
    NodeBoard board;

    @Inject
    StreamSlots slots;

    @GET
    @Path("/summary")
    public NodeBoard.Summary summary() {
        return board.summary();
    }

    @GET
    @Path("/nodes")
    public Response nodes(@QueryParam("state") String state, @QueryParam("maintenance") String maintenance,
            @QueryParam("retired") String retired, @QueryParam("q") String search,
            @QueryParam("limit") String limit) {
        try {
            NodeBoard.Filter filter = new NodeBoard.Filter(blankToNull(state), flag("maintenance", maintenance),
                    flag("retired", retired), blankToNull(search));
            return Response.ok(board.query(filter, limit(limit))).build();
        } catch (IllegalArgumentException e) {
            return badRequest(e.getMessage());
        }
    }

    @GET
    @Path("/nodes/{node}")
    public Response node(@PathParam("node") String node) {
        return board.node(node).map(detail -> Response.ok(detail).build())
                .orElseGet(() -> Response.status(Response.Status.NOT_FOUND)
                        .entity(Map.of("error_message", "Node " + node + " could not be found.")).build());
    }

    @GET
    @Path("/stream")
    @Produces(MediaType.SERVER_SENT_EVENTS)
    @RestStreamElementType(MediaType.APPLICATION_JSON)
    public Multi<Tick> stream() {
        if (!slots.tryOpen()) {
            throw new WebApplicationException(Response.status(Response.Status.SERVICE_UNAVAILABLE)
                    .type(MediaType.APPLICATION_JSON).header("Retry-After", "15")
                    .entity(Map.of("error_message", "The dashboard serves at most " + slots.max()
                            + " event streams at once; close another page or retry later.")).build());
        }
        AtomicBoolean open = new AtomicBoolean(true);
        AtomicLong seen = new AtomicLong(-1);
        AtomicLong quiet = new AtomicLong();
        return Multi.createFrom().ticks().startingAfter(Duration.ofMillis(1)).every(Duration.ofMillis(TICK_MILLIS))
                .onOverflow().drop()
                .map(tick -> {
                    long now = board.sequence();
                    long before = seen.getAndSet(now);
                    if (before == now && quiet.incrementAndGet() < HEARTBEAT_TICKS) {
                        return Optional.<Tick>empty();
                    }
                    quiet.set(0);
                    List<NodeBoard.Transition> events = before < 0 ? board.transitionsAfter(now - EVENTS_PER_TICK, 20)
                            : board.transitionsAfter(before, EVENTS_PER_TICK);
                    return Optional.of(new Tick(board.summary(), events, before != now));
                })
                .filter(Optional::isPresent).map(Optional::get)
                // the page went away (cancellation), or the stream ended: its slot is free again, once
                .onTermination().invoke(() -> {
                    if (open.getAndSet(false)) {
                        slots.closed();
                    }
                });
    }

    /** One push to the page: the counts, the transitions since the last push, and whether any node changed. */
    public record Tick(NodeBoard.Summary summary, List<NodeBoard.Transition> events, boolean changed) {
    }

    private static String blankToNull(String value) {
        return value == null || value.isBlank() ? null : value;
    }

    private static Boolean flag(String name, String value) {
        if (value == null || value.isEmpty()) {
            return null;
        }
        return switch (value) {
            case "true" -> Boolean.TRUE;
            case "false" -> Boolean.FALSE;
            default -> throw new IllegalArgumentException(name + " must be true or false, not '" + value + "'");
        };
    }

    private static int limit(String value) {
        if (value == null || value.isEmpty()) {
            return 200;
        }
        try {
            int limit = Integer.parseInt(value);
            if (limit >= 1 && limit <= MAX_LIMIT) {
                return limit;
            }
        } catch (NumberFormatException e) {
            // answered below
        }
        throw new IllegalArgumentException("limit must be a number from 1 to " + MAX_LIMIT + ", not '" + value + "'");
    }

    private static Response badRequest(String message) {
        return Response.status(Response.Status.BAD_REQUEST).entity(Map.of("error_message", message)).build();
    }
}
