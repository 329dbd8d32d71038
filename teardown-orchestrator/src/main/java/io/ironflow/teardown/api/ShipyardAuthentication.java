package io.ironflow.teardown.api;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ironflow.auth.AuthConfig;
import io.ironflow.auth.HttpAuthentication;
import io.ironflow.teardown.status.AirshipStatus;
import io.ironflow.teardown.status.StatusMessage;
import io.vertx.ext.web.Router;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.List;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The orchestrator's HTTP port under io.ironflow.auth, like every Ironflow service's ({@code ironflow.auth.*}):
 * only the health checks are open; system-scoped readers may read actions and documents, and only an admin or a
 * service may change them. Refusals are Airship status documents, as Shipyard answers 401 and 403.
 */
@ApplicationScoped
public class ShipyardAuthentication {

    private final HttpAuthentication authentication;

    ShipyardAuthentication(AuthConfig config, @ConfigProperty(name = "quarkus.http.host") String host, ObjectMapper json) {
        this.authentication = new HttpAuthentication(config, host, HttpAuthentication::health,
                HttpAuthentication::systemOperator, (context, status, challenge, message) -> {
                    if (challenge != null) {
                        context.response().putHeader("WWW-Authenticate", challenge);
                    }
                    AirshipStatus body = AirshipStatus.failure(status, status == 401 ? "Unauthorized" : "Forbidden",
                            message, List.of(StatusMessage.error(null, message)));
                    String text;
                    try {
                        text = json.writeValueAsString(body);
                    } catch (JsonProcessingException e) {
                        throw new IllegalStateException(e);
                    }
                    context.response().setStatusCode(status).putHeader("Content-Type", "application/json")
                            .putHeader("Connection", "close").end(text);
                });
    }

    void install(@Observes Router router) {
        authentication.install(router);
    }
}
