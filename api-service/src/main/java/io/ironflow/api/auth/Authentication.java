package io.ironflow.api.auth;

import io.ironflow.api.errors.IronicErrors;
import io.ironflow.policy.Principal;
import io.vertx.core.http.HttpHeaders;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.List;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/**
 * Authenticates every request before any resource sees it, with the configured {@link AuthStrategy}, and leaves
 * the caller's {@link Principal} in the routing context for {@link Access}. Open to all, as in Ironic: the version
 * documents {@code /} and {@code /v1}, and the health checks under {@code /q/health}. A request without valid
 * credentials is 401 with a {@code WWW-Authenticate} challenge and Ironic's error body. Start-up fails with one
 * line when noauth would listen beyond loopback, or when a strategy's files or keys cannot be read.
 */
@ApplicationScoped
public class Authentication {

    static final String PRINCIPAL = "ironflow.principal";
    private static final Logger LOG = Logger.getLogger(Authentication.class);

    private final Authenticator authenticator; // null: noauth

    Authentication(AuthConfig config, @ConfigProperty(name = "quarkus.http.host") String host) {
        String refusal = config.strategy().refusal(List.of(host));
        if (refusal != null) {
            throw new IllegalStateException(refusal);
        }
        this.authenticator = switch (config.strategy()) {
            case noauth -> null;
            case http_basic -> Htpasswd.load(config.httpBasic().userFile().orElseThrow(() -> new IllegalStateException(
                    "ironflow.auth.strategy=http_basic needs ironflow.auth.http-basic.user-file (an htpasswd file of bcrypt entries)")),
                    config.httpBasic().rolesFile().orElse(null));
            case jwt -> new JwtTokens(config.jwt());
        };
        LOG.infof("authentication: %s", config.strategy());
    }

    void install(@Observes Router router) {
        router.route().order(Integer.MIN_VALUE + 1).handler(this::authenticate);
    }

    private void authenticate(RoutingContext context) {
        if (authenticator == null) {
            context.put(PRINCIPAL, Principal.NOAUTH);
            context.next();
            return;
        }
        if (open(context.normalizedPath())) {
            context.next();
            return;
        }
        try {
            context.put(PRINCIPAL, authenticator.authenticate(context.request().getHeader(HttpHeaders.AUTHORIZATION),
                    context.request().getHeader("X-Auth-Token")));
            context.next();
        } catch (Unauthenticated e) {
            context.response()
                    .setStatusCode(401)
                    .putHeader("WWW-Authenticate", authenticator.challenge())
                    .putHeader(HttpHeaders.CONTENT_TYPE, "application/json")
                    .putHeader(HttpHeaders.CONNECTION, "close") // a body the client sent is not read
                    .end(IronicErrors.body(401, "Authentication required: " + e.getMessage() + "."));
        }
    }

    /** Ironic's public routes: the version documents; and the health checks, which probes call without credentials. */
    static boolean open(String path) {
        return path.equals("/") || path.equals("/v1") || path.equals("/v1/") || path.equals("/q/health")
                || path.startsWith("/q/health/");
    }
}
