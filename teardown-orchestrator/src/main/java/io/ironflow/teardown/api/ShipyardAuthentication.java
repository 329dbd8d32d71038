package io.ironflow.teardown.api;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ironflow.auth.AuthConfig;
import io.ironflow.auth.BodyTypes;
import io.ironflow.auth.HttpAuthentication;
import io.ironflow.teardown.status.AirshipStatus;
import io.ironflow.teardown.status.StatusMessage;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.Router;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.List;
import java.util.Set;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The orchestrator's HTTP port under io.ironflow.auth, like every Ironflow service's ({@code ironflow.auth.*}):
 * only the health checks are open; system-scoped readers may read actions and documents, and only an admin or a
 * service may change them. Refusals are Airship status documents, as Shipyard answers 401 and 403. Bodies of the
 * JSON endpoints (actions, the direct node steps) must be JSON (415 otherwise); configdocs take their YAML as
 * Shipyard's client sends it. While noauth, only loopback Host names and no foreign Origin are answered (403).
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
                    AirshipStatus body = AirshipStatus.failure(status, reason(status), message,
                            List.of(StatusMessage.error(null, message)));
                    String text;
                    try {
                        text = json.writeValueAsString(body);
                    } catch (JsonProcessingException e) {
                        throw new IllegalStateException(e);
                    }
                    context.response().setStatusCode(status).putHeader("Content-Type", "application/json")
                            .putHeader("Connection", "close").end(text);
                }).requireBodyTypes(ShipyardAuthentication::bodyTypes);
    }

    /** JSON but for a configdocs collection, which is YAML in whatever type the client names. */
    static Set<String> bodyTypes(HttpMethod method, String path) {
        return path.startsWith("/api/v1.0/configdocs/") ? Set.of() : BodyTypes.JSON.accepted(method, path);
    }

    /** Shipyard's reason for each status a refusal has: the HTTP reason phrase, without spaces. */
    private static String reason(int status) {
        return switch (status) {
            case 401 -> "Unauthorized";
            case 403 -> "Forbidden";
            case 415 -> "UnsupportedMediaType";
            case 429 -> "TooManyRequests";
            default -> HttpResponseStatus.valueOf(status).reasonPhrase().replace(" ", "");
        };
    }

    void install(@Observes Router router) {
        authentication.install(router);
    }
}
