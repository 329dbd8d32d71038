package io.ironflow.oneview.migration;

import io.ironflow.auth.AuthConfig;
import io.ironflow.auth.HttpAuthentication;
import io.vertx.ext.web.Router;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The allocator's HTTP port (its /admin API and metrics) under io.ironflow.auth, like every Ironflow service's
 * ({@code ironflow.auth.*}): only the health checks are open; system-scoped readers may read, admins and services
 * may act. A refusal is the /admin API's own error shape, {@code {"error": "..."}}.
 */
@ApplicationScoped
public class AdminAuthentication {

    private final HttpAuthentication authentication;

    AdminAuthentication(AuthConfig config, @ConfigProperty(name = "quarkus.http.host") String host) {
        this.authentication = HttpAuthentication.forSystemOperators(config, host, "error");
    }

    void install(@Observes Router router) {
        authentication.install(router);
    }
}
