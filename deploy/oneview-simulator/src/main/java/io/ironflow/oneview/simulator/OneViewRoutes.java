package io.ironflow.oneview.simulator;

import io.vertx.core.Vertx;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.function.Function;

/**
 * HTTP for the simulated appliance: OneView's REST subset under {@code /rest} and the simulator's own admin API
 * under {@code /admin}. Every {@code /rest} call is logged; it passes injected faults first (latency, then a
 * forced status), then OneView's checks: {@code X-API-Version} within the supported range (412 otherwise; only
 * {@code GET /rest/version} is exempt) and a live session in the {@code auth} header (401 otherwise; not for
 * logging in). Answers are JSON; errors are OneView's ErrorMessage.
 */
@ApplicationScoped
public class OneViewRoutes {

    private final Appliance appliance;
    private final Faults faults;
    private final CallLog calls;
    private final Vertx vertx;

    OneViewRoutes(Appliance appliance, Faults faults, CallLog calls, Vertx vertx) {
        this.appliance = appliance;
        this.faults = faults;
        this.calls = calls;
        this.vertx = vertx;
    }

    void routes(@Observes Router router) {
        router.route("/rest/*").order(-10).handler(BodyHandler.create().setBodyLimit(1_000_000)).handler(this::gate);
        router.route("/admin/*").order(-10).handler(BodyHandler.create().setBodyLimit(1_000_000));

        router.get("/rest/version").handler(json(ctx -> new JsonObject()
                .put("currentVersion", Appliance.CURRENT_API_VERSION).put("minimumVersion", Appliance.MINIMUM_API_VERSION)));
        router.post("/rest/login-sessions").handler(json(ctx -> {
            JsonObject body = body(ctx);
            return new JsonObject().put("sessionID", appliance.login(body.getString("userName"), body.getString("password")))
                    .put("partnerData", new JsonObject());
        }));
        router.delete("/rest/login-sessions").handler(noContent(ctx -> appliance.logout(auth(ctx))));

        router.get("/rest/server-hardware").handler(json(ctx -> Collection.page("server-hardware-list-12",
                "/rest/server-hardware", appliance.serverHardware(), ctx.queryParam("filter"),
                ctx.request().getParam("start"), ctx.request().getParam("count"))));
        router.get("/rest/server-hardware/:id").handler(item(ctx -> appliance.serverHardware(ctx.pathParam("id"))));
        router.put("/rest/server-hardware/:id/powerState").handler(task(ctx ->
                appliance.setPowerState(ctx.pathParam("id"), body(ctx))));

        router.get("/rest/server-profile-templates").handler(json(ctx -> Collection.page("ServerProfileTemplateListV8",
                "/rest/server-profile-templates", appliance.templates(), ctx.queryParam("filter"),
                ctx.request().getParam("start"), ctx.request().getParam("count"))));
        router.get("/rest/server-profile-templates/:id/new-profile").handler(json(ctx -> appliance.newProfile(ctx.pathParam("id"))));
        router.get("/rest/server-profile-templates/:id").handler(item(ctx -> appliance.template(ctx.pathParam("id"))));

        router.get("/rest/server-profiles").handler(json(ctx -> Collection.page("ServerProfileListV12",
                "/rest/server-profiles", appliance.profiles(), ctx.queryParam("filter"),
                ctx.request().getParam("start"), ctx.request().getParam("count"))));
        router.post("/rest/server-profiles").handler(task(ctx -> appliance.createProfile(body(ctx))));
        router.get("/rest/server-profiles/:id").handler(item(ctx -> appliance.profile(ctx.pathParam("id"))));
        router.put("/rest/server-profiles/:id").handler(task(ctx ->
                appliance.updateProfile(ctx.pathParam("id"), body(ctx), ctx.request().getHeader("If-Match"))));
        router.delete("/rest/server-profiles/:id").handler(task(ctx ->
                appliance.deleteProfile(ctx.pathParam("id"), ctx.request().getHeader("If-Match"))));

        router.get("/rest/tasks/:id").handler(item(ctx -> appliance.task(ctx.pathParam("id"))));
        router.route("/rest/*").order(10_000).handler(ctx -> error(ctx, OneViewError.notFound(ctx.request().path())));

        // The admin API: what a OneView user (or a test) does, outside OneView's own API.
        router.put("/admin/server-hardware/:id/profile").handler(json(ctx -> appliance.applyUserProfile(
                ctx.pathParam("id"), ctx.body().isEmpty() ? null : body(ctx).getString("name"))));
        router.delete("/admin/server-hardware/:id/profile").handler(noContent(ctx -> appliance.removeAnyProfile(ctx.pathParam("id"))));
        router.post("/admin/faults").handler(ctx -> safely(ctx, () -> {
            JsonArray specs = ctx.body().asString().strip().startsWith("[") ? ctx.body().asJsonArray()
                    : new JsonArray().add(body(ctx));
            for (int i = 0; i < specs.size(); i++) {
                JsonObject fault = specs.getJsonObject(i);
                if ("expire-sessions".equals(fault.getString("type"))) {
                    appliance.expireSessions();
                } else {
                    faults.add(fault);
                }
            }
            answer(ctx, 201, faults.list().encode());
        }));
        router.get("/admin/faults").handler(ctx -> answer(ctx, 200, faults.list().encode()));
        router.delete("/admin/faults").handler(ctx -> {
            faults.clear();
            ctx.response().setStatusCode(204).end();
        });
        router.get("/admin/calls").handler(ctx -> safely(ctx, () -> {
            String since = ctx.request().getParam("since");
            answer(ctx, 200, calls.since(since == null ? 0 : Long.parseLong(since)).encode());
        }));
        router.delete("/admin/calls").handler(ctx -> {
            calls.clear();
            ctx.response().setStatusCode(204).end();
        });
    }

    /** Logging, injected faults, then OneView's version and session checks. */
    private void gate(RoutingContext ctx) {
        String method = ctx.request().method().name();
        String path = ctx.request().path();
        ctx.addHeadersEndHandler(v -> calls.record(method, path, ctx.request().query(), ctx.response().getStatusCode(),
                ctx.body() == null || ctx.body().isEmpty() ? null : ctx.body().asString()));
        long delay = faults.take("latency", method, path).map(Faults.Fault::millis).orElse(0L);
        Runnable rest = () -> {
            var forced = faults.take("status", method, path);
            if (forced.isPresent() && forced.get().html()) {
                int status = forced.get().status();
                ctx.response().setStatusCode(status).putHeader("Content-Type", "text/html")
                        .end("<html><head><title>" + status + "</title></head><body><h1>" + status + "</h1></body></html>\n");
                return;
            }
            if (forced.isPresent()) {
                error(ctx, new OneViewError(forced.get().status(), "INJECTED_FAULT", forced.get().message(), "Retry later."));
                return;
            }
            if (faults.take("lose-answer", method, path).isPresent()) {
                ctx.addHeadersEndHandler(v -> ctx.request().connection().close());
            }
            safely(ctx, () -> {
                if (!path.equals("/rest/version")) {
                    requireApiVersion(ctx.request().getHeader("X-API-Version"));
                    if (!(path.equals("/rest/login-sessions") && method.equals("POST"))) {
                        appliance.requireSession(auth(ctx));
                    }
                }
                ctx.next();
            });
        };
        if (delay > 0) {
            vertx.setTimer(delay, id -> rest.run());
        } else {
            rest.run();
        }
    }

    private static void requireApiVersion(String header) {
        int version;
        try {
            version = header == null ? 1 : Integer.parseInt(header.strip()); // no header: the first version
        } catch (NumberFormatException e) {
            version = -1;
        }
        if (version < Appliance.MINIMUM_API_VERSION || version > Appliance.CURRENT_API_VERSION) {
            throw new OneViewError(412, "UNSUPPORTED_VERSION", "The API version " + (header == null ? "(none given)" : header)
                    + " is not supported; the supported versions are " + Appliance.MINIMUM_API_VERSION + " to "
                    + Appliance.CURRENT_API_VERSION + ".", "Send a supported X-API-Version header.");
        }
    }

    private static String auth(RoutingContext ctx) {
        return ctx.request().getHeader("auth"); // header names are case-insensitive
    }

    private static JsonObject body(RoutingContext ctx) {
        try {
            JsonObject body = ctx.body().asJsonObject();
            if (body == null) {
                throw OneViewError.badRequest("INVALID_JSON", "The request needs a JSON object body.");
            }
            return body;
        } catch (DecodeException | ClassCastException e) {
            throw OneViewError.badRequest("INVALID_JSON", "The request body is not a JSON object.");
        }
    }

    private Handler json(Function<RoutingContext, JsonObject> handler) {
        return ctx -> safely(ctx, () -> answer(ctx, 200, handler.apply(ctx).encode()));
    }

    /** A single resource, with its eTag as the ETag header. */
    private Handler item(Function<RoutingContext, JsonObject> handler) {
        return ctx -> safely(ctx, () -> {
            JsonObject resource = handler.apply(ctx);
            ctx.response().putHeader("ETag", resource.getString("eTag"));
            answer(ctx, 200, resource.encode());
        });
    }

    /** An asynchronous change: 202, the task's URI in Location, and the task as the body. */
    private Handler task(Function<RoutingContext, JsonObject> handler) {
        return ctx -> safely(ctx, () -> {
            JsonObject task = handler.apply(ctx);
            ctx.response().putHeader("Location", task.getString("uri"));
            answer(ctx, 202, task.encode());
        });
    }

    private Handler noContent(java.util.function.Consumer<RoutingContext> handler) {
        return ctx -> safely(ctx, () -> {
            handler.accept(ctx);
            ctx.response().setStatusCode(204).end();
        });
    }

    private interface Handler extends io.vertx.core.Handler<RoutingContext> {
    }

    private static void safely(RoutingContext ctx, Runnable work) {
        try {
            work.run();
        } catch (OneViewError e) {
            error(ctx, e);
        } catch (DecodeException | NumberFormatException | ClassCastException e) {
            error(ctx, OneViewError.badRequest("INVALID_REQUEST", "The request is not valid: " + e.getMessage()));
        }
    }

    private static void error(RoutingContext ctx, OneViewError e) {
        answer(ctx, e.status(), e.body().encode());
    }

    private static void answer(RoutingContext ctx, int status, String json) {
        ctx.response().setStatusCode(status).putHeader("Content-Type", "application/json").end(json);
    }
}
