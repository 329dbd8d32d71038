package io.ironflow.dashboard;

import io.ironflow.auth.AuthConfig;
import io.ironflow.auth.HttpAuthentication;
import io.vertx.ext.web.Router;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The dashboard's HTTP port under io.ironflow.auth, like every Ironflow service's ({@code ironflow.auth.*}): the
 * health checks stay open for probes; the page, its JSON, its event stream and the metrics need a system-scoped
 * reader (or a service). Project-scoped users are refused (403) although Ironic lets them read their own nodes:
 * the board shows every node, and filtering it per project is not what a fleet overview is for.
 *
 * <p>With http_basic a 401 carries the Basic challenge, so a browser asks for a user and password once and sends
 * them again on the page's own requests, the Server-Sent Events stream included (same origin, same protection
 * space). With jwt a browser cannot add a bearer token to the page or to its EventSource: put a proxy that adds
 * {@code Authorization: Bearer} in front, or call the JSON endpoints with the header yourself.
 */
@ApplicationScoped
public class DashboardAuthentication {

    private final HttpAuthentication authentication;

    DashboardAuthentication(AuthConfig config, @ConfigProperty(name = "quarkus.http.host") String host) {
        this.authentication = HttpAuthentication.forSystemOperators(config, host, "error_message");
    }

    void install(@Observes Router router) {
        authentication.install(router);
    }
}
