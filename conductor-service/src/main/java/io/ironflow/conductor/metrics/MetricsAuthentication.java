package io.ironflow.conductor.metrics;

import io.ironflow.auth.AuthConfig;
import io.ironflow.auth.HttpAuthentication;
import io.vertx.ext.web.Router;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The conductor's HTTP port (health and metrics only) under io.ironflow.auth, like every Ironflow service's
 * ({@code ironflow.auth.*}): the health checks stay open for probes, the metrics need a system-scoped reader.
 */
@ApplicationScoped
public class MetricsAuthentication {

    private final HttpAuthentication authentication;

    MetricsAuthentication(AuthConfig config, @ConfigProperty(name = "quarkus.http.host") String host) {
        this.authentication = HttpAuthentication.forSystemOperators(config, host, "error");
    }

    void install(@Observes Router router) {
        authentication.install(router);
    }
}
