package io.ironflow.api.auth;

import io.ironflow.api.errors.IronicErrors;
import io.ironflow.auth.AuthConfig;
import io.ironflow.auth.HttpAuthentication;
import io.vertx.core.http.HttpHeaders;
import io.vertx.ext.web.Router;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/**
 * The API's side of io.ironflow.auth: every request is authenticated before any resource sees it, and the caller
 * left for {@link Access}, which applies Ironic's rules per endpoint (so any authenticated caller reaches the
 * resources). Open to all, as in Ironic: the version documents {@code /} and {@code /v1}, and the health checks
 * under {@code /q/health}. A request without valid credentials is 401 with a {@code WWW-Authenticate} challenge
 * and Ironic's error body.
 */
@ApplicationScoped
public class Authentication {

    private static final Logger LOG = Logger.getLogger(Authentication.class);

    private final HttpAuthentication authentication;

    Authentication(AuthConfig config, @ConfigProperty(name = "quarkus.http.host") String host) {
        this.authentication = new HttpAuthentication(config, host, Authentication::open, (who, method) -> true,
                (context, status, challenge, message) -> {
                    if (challenge != null) {
                        context.response().putHeader("WWW-Authenticate", challenge);
                    }
                    context.response()
                            .setStatusCode(status)
                            .putHeader(HttpHeaders.CONTENT_TYPE, "application/json")
                            .putHeader(HttpHeaders.CONNECTION, "close") // a body the client sent is not read
                            .end(IronicErrors.body(status, message));
                });
        LOG.infof("authentication: %s", config.strategy());
    }

    void install(@Observes Router router) {
        authentication.install(router);
    }

    /** Ironic's public routes: the version documents; and the health checks, which probes call without credentials. */
    static boolean open(String path) {
        return path.equals("/") || path.equals("/v1") || path.equals("/v1/") || HttpAuthentication.health(path);
    }
}
