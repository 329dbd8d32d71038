package io.ironflow.auth;

import io.ironflow.policy.Principal;
import io.vertx.core.AsyncResult;
import io.vertx.core.Future;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.net.SocketAddress;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.util.List;
import java.util.Set;
import java.util.function.BiPredicate;
import java.util.function.Predicate;

/**
 * One service's HTTP authentication, the same in every Ironflow service: the {@link AuthStrategy} of
 * {@code ironflow.auth.*} checks every request before any route sees it and leaves the caller's {@link Principal}
 * in the routing context ({@link #principal}); the service says which paths stay open (its health checks, at
 * least), which callers may use its port at all, and how a refusal looks in its own API's error format. Start-up
 * fails with one line when noauth would listen beyond loopback, or when a strategy's files or keys cannot be read.
 *
 * <p>What a web page the operator visits could otherwise do is refused too: while noauth, a request must name a
 * loopback Host and come from no foreign Origin ({@link LoopbackHosts}, 403); and a body must have one of the
 * service's {@link BodyTypes} (415). http_basic's bcrypt runs off the event loop ({@link BasicLogins}), its
 * failures limited per client address and per user (429 with Retry-After).
 */
public final class HttpAuthentication {

    /** How a service answers a refused request: its status (401 or 403), challenge (401 only) and message. */
    @FunctionalInterface
    public interface Refusal {
        void refuse(RoutingContext context, int status, String challenge, String message);
    }

    private static final String PRINCIPAL = "ironflow.principal";

    private final Authenticator authenticator; // null: noauth
    private final BasicLogins logins; // null unless http_basic
    private final Predicate<String> open;
    private final BiPredicate<Principal, HttpMethod> allowed;
    private final Refusal refusal;
    private BodyTypes bodyTypes = (method, path) -> Set.of(); // any, until the service says

    /**
     * @param host the HTTP listener's address ({@code quarkus.http.host})
     * @param open the paths served without credentials
     * @param allowed whether an authenticated caller may send this method to this service at all (403 if not)
     */
    public HttpAuthentication(AuthConfig config, String host, Predicate<String> open,
            BiPredicate<Principal, HttpMethod> allowed, Refusal refusal) {
        String refused = config.strategy().refusal(List.of(host));
        if (refused != null) {
            throw new IllegalStateException(refused);
        }
        this.authenticator = switch (config.strategy()) {
            case noauth -> null;
            case http_basic -> Htpasswd.load(config.httpBasic().userFile().orElseThrow(() -> new IllegalStateException(
                    "ironflow.auth.strategy=http_basic needs ironflow.auth.http-basic.user-file (an htpasswd file of bcrypt entries)")),
                    config.httpBasic().rolesFile().orElse(null));
            case jwt -> new JwtTokens(config.jwt());
        };
        this.logins = authenticator instanceof Htpasswd users ? new BasicLogins(users, config.httpBasic()) : null;
        this.open = open;
        this.allowed = allowed;
        this.refusal = refusal;
    }

    /**
     * The authentication of a service that is not Ironic's API (its health checks open, {@link #systemOperator}'s
     * rule), refusing with a JSON object whose {@code errorField} holds the message, as that service's own errors do.
     */
    public static HttpAuthentication forSystemOperators(AuthConfig config, String host, String errorField) {
        return new HttpAuthentication(config, host, HttpAuthentication::health, HttpAuthentication::systemOperator,
                jsonRefusal(errorField));
    }

    /**
     * A refusal as {@code {"<errorField>": message}}, with the strategy's challenge on a 401. The connection is
     * closed: a refused request's body is never read, and must not be taken for the next request.
     */
    private static Refusal jsonRefusal(String errorField) {
        return (context, status, challenge, message) -> {
            if (challenge != null) {
                context.response().putHeader("WWW-Authenticate", challenge);
            }
            context.response().setStatusCode(status).putHeader("Content-Type", "application/json")
                    .putHeader("Connection", "close").end(new JsonObject().put(errorField, message).encode() + "\n");
        };
    }

    /** The media types this service reads bodies in (none required unless set); refused with 415. */
    public HttpAuthentication requireBodyTypes(BodyTypes types) {
        this.bodyTypes = types;
        return this;
    }

    /** Puts the checks in front of every route of {@code router}: loopback names (noauth), credentials, body types. */
    public void install(Router router) {
        if (authenticator == null) {
            router.route().order(Integer.MIN_VALUE + 1).handler(this::loopbackOnly);
        }
        router.route().order(Integer.MIN_VALUE + 1).handler(this::authenticate);
        router.route().order(Integer.MIN_VALUE + 1).handler(this::checkBodyType);
    }

    /** The caller {@link #install}'s check found for this request (noauth: {@link Principal#NOAUTH}); null on an open path. */
    public static Principal principal(RoutingContext context) {
        return context.get(PRINCIPAL);
    }

    /**
     * The rule of a service that is not Ironic's API (the teardown orchestrator, the allocator): only system-scoped
     * callers; reads for any reader, changes for an admin or a service (Ironflow's own, or an operator's tooling).
     */
    public static boolean systemOperator(Principal who, HttpMethod method) {
        if (!who.systemScope()) {
            return false;
        }
        boolean read = method == HttpMethod.GET || method == HttpMethod.HEAD || method == HttpMethod.OPTIONS;
        return read ? who.hasRole("reader") || who.hasRole("service") : who.hasRole("admin") || who.hasRole("service");
    }

    /** Health checks under {@code /q/health}: probes call them without credentials. */
    public static boolean health(String path) {
        return path.equals("/q/health") || path.startsWith("/q/health/");
    }

    private void loopbackOnly(RoutingContext context) {
        String refused = LoopbackHosts.refusal(context.request().getHeader("Host"), context.request().getHeader("Origin"));
        if (refused != null) {
            refusal.refuse(context, 403, null, "Access was denied: " + refused + ".");
            return;
        }
        context.next();
    }

    private void checkBodyType(RoutingContext context) {
        String refused = bodyTypes.refusal(context.request(), context.normalizedPath());
        if (refused != null) {
            refusal.refuse(context, 415, null, refused + ".");
            return;
        }
        context.next();
    }

    private void authenticate(RoutingContext context) {
        if (authenticator == null) {
            context.put(PRINCIPAL, Principal.NOAUTH);
            context.next();
            return;
        }
        if (open.test(context.normalizedPath())) {
            context.next();
            return;
        }
        String authorization = context.request().getHeader("Authorization");
        if (logins != null) {
            SocketAddress client = context.request().remoteAddress();
            logins.authenticate(context.vertx(), authorization, client == null ? "unknown" : client.hostAddress())
                    .onComplete(result -> decided(context, result));
            return;
        }
        Future<Principal> who;
        try {
            who = Future.succeededFuture(authenticator.authenticate(authorization, context.request().getHeader("X-Auth-Token")));
        } catch (Unauthenticated e) {
            who = Future.failedFuture(e);
        }
        decided(context, who);
    }

    /** Answers or passes on a request once its credentials are decided (at once, or after bcrypt on a worker). */
    private void decided(RoutingContext context, AsyncResult<Principal> result) {
        if (context.response().ended() || context.response().closed()) {
            return; // the client went away while bcrypt ran
        }
        if (result.failed()) {
            if (result.cause() instanceof TooManyLogins tooMany) {
                context.response().putHeader("Retry-After", Long.toString(tooMany.retryAfterSeconds()));
                refusal.refuse(context, 429, null, "Too many requests: " + tooMany.getMessage() + ".");
            } else if (result.cause() instanceof Unauthenticated unauthenticated) {
                refusal.refuse(context, 401, authenticator.challenge(), "Authentication required: " + unauthenticated.getMessage() + ".");
            } else {
                context.fail(result.cause());
            }
            return;
        }
        Principal who = result.result();
        if (!allowed.test(who, context.request().method())) {
            refusal.refuse(context, 403, null, "Access was denied: " + context.request().method() + " "
                    + context.normalizedPath() + " needs a system-scoped reader (reads) or admin or service (changes).");
            return;
        }
        context.put(PRINCIPAL, who);
        context.next();
    }
}
