package io.ironflow.api.auth;

import io.ironflow.api.errors.IronicErrors;
import io.ironflow.auth.AuthConfig;
import io.ironflow.auth.BodyTypes;
import io.ironflow.auth.HttpAuthentication;
import io.ironflow.policy.Principal;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/**
 * The API's side of io.ironflow.auth: every request is authenticated before any resource sees it, and the caller
 * left for {@link Access}, which applies Ironic's rules per endpoint (so any authenticated caller reaches the
 * resources). Open to all, as in Ironic: the version documents {@code /} and {@code /v1}, and the health checks
 * under {@code /q/health}. A request without valid credentials is 401 with a {@code WWW-Authenticate} challenge
 * and Ironic's error body. The metrics and the OpenAPI document ({@code /q/metrics}, {@code /q/openapi}) need a
 * system-scoped reader, as every other service's metrics do: they name every route and count every caller's
 * requests. A body must be JSON (415 otherwise, {@link BodyTypes#JSON}), and while noauth only loopback Host names
 * are answered, so no web page can drive the API.
 */
@ApplicationScoped
public class Authentication {

    private static final Logger LOG = Logger.getLogger(Authentication.class);

    private final HttpAuthentication authentication;
    private final HttpAuthentication.Refusal refusal;

    Authentication(AuthConfig config, @ConfigProperty(name = "quarkus.http.host") String host) {
        this.refusal = (context, status, challenge, message) -> {
            if (challenge != null) {
                context.response().putHeader("WWW-Authenticate", challenge);
            }
            context.response()
                    .setStatusCode(status)
                    .putHeader(HttpHeaders.CONTENT_TYPE, "application/json")
                    .putHeader(HttpHeaders.CONNECTION, "close") // a body the client sent is not read
                    .end(IronicErrors.body(status, message));
        };
        this.authentication = new HttpAuthentication(config, host, Authentication::open, (who, method) -> true, refusal)
                .requireBodyTypes(BodyTypes.JSON);
        LOG.infof("authentication: %s", config.strategy());
    }

    void install(@Observes Router router) {
        authentication.install(router);
        // after the authentication (same order, installed later): the caller is known
        router.route().order(Integer.MIN_VALUE + 1).handler(this::operatorsOnly);
    }

    /** {@code /q/metrics} and {@code /q/openapi} for system-scoped readers (or services) only: 403 for the rest. */
    private void operatorsOnly(RoutingContext context) {
        String path = context.normalizedPath();
        if (!(path.startsWith("/q/metrics") || path.startsWith("/q/openapi"))) {
            context.next();
            return;
        }
        Principal who = HttpAuthentication.principal(context);
        if (who == null || !HttpAuthentication.systemOperator(who, HttpMethod.GET)) {
            refusal.refuse(context, 403, null, "Access was denied: " + path + " needs a system-scoped reader.");
            return;
        }
        context.next();
    }

    /** Ironic's public routes: the version documents; and the health checks, which probes call without credentials. */
    static boolean open(String path) {
        return path.equals("/") || path.equals("/v1") || path.equals("/v1/") || HttpAuthentication.health(path);
    }
}
