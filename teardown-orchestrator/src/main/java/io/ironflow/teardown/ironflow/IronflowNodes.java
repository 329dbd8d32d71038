package io.ironflow.teardown.ironflow;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ironflow.teardown.http.WholeAnswers;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Reads Ironflow nodes through its Ironic API ({@code GET /v1/nodes/{name}}), as any client would: the
 * orchestrator never reads or writes node rows. A node is found by name, the Kubernetes node name. When the API
 * authenticates, the orchestrator proves itself as its service account: HTTP Basic with
 * {@code ironflow.teardown.ironflow-api.username} and {@code .password}, or a bearer token in {@code .token}
 * (sent as X-Auth-Token, as OpenStack clients do); all three settable through the environment, none committed.
 */
@ApplicationScoped
public class IronflowNodes {

    /** What a teardown needs to know of a node. */
    public record NodeView(String uuid, String name, String provisionState, String powerState, boolean retired,
            String lastError, JsonNode document) {
    }

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(3)).build();

    @Inject
    ObjectMapper json;

    @ConfigProperty(name = "ironflow.teardown.ironflow-api.url")
    String api;

    @ConfigProperty(name = "ironflow.teardown.ironflow-api.username")
    Optional<String> username;

    @ConfigProperty(name = "ironflow.teardown.ironflow-api.password")
    Optional<String> password;

    @ConfigProperty(name = "ironflow.teardown.ironflow-api.token")
    Optional<String> token;

    /** A token file kept fresh by the platform (short-lived tokens): read again whenever it changes. */
    @ConfigProperty(name = "ironflow.teardown.ironflow-api.token-file")
    Optional<Path> tokenFile;

    private TokenFile freshToken;

    @PostConstruct
    void openTokenFile() {
        freshToken = tokenFile.map(TokenFile::new).orElse(null);
    }

    /**
     * The request with the service account's credentials, if any are configured: Basic, else the token file's
     * newest token, else a fixed token.
     */
    private HttpRequest.Builder authenticated(HttpRequest.Builder request) {
        if (username.isPresent()) {
            String basic = username.get() + ":" + password.orElse("");
            return request.header("Authorization", "Basic "
                    + java.util.Base64.getEncoder().encodeToString(basic.getBytes(StandardCharsets.UTF_8)));
        }
        if (freshToken != null) {
            return request.header("X-Auth-Token", freshToken.token());
        }
        return token.map(t -> request.header("X-Auth-Token", t)).orElse(request);
    }

    /**
     * Ironflow's API away for the moment (no answer, or a 5xx): a poll may try again. Any other failure to read
     * (a 401 of a wrong service account, say) is an {@link IllegalStateException} that trying again does not mend.
     */
    public static final class Unreachable extends IllegalStateException {
        Unreachable(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /** The node, empty when Ironflow does not know it; an unreachable API is {@link Unreachable}. */
    public Optional<NodeView> find(String name) {
        try {
            HttpResponse<String> response = WholeAnswers.send(http, authenticated(HttpRequest.newBuilder(URI.create(api
                    + "/v1/nodes/" + URLEncoder.encode(name, StandardCharsets.UTF_8)))).timeout(Duration.ofSeconds(10))
                    .header("X-OpenStack-Ironic-API-Version", "latest").GET().build());
            if (response.statusCode() == 404) {
                return Optional.empty();
            }
            if (response.statusCode() >= 500) {
                throw new Unreachable("Ironflow's API answered " + response.statusCode() + " for node " + name, null);
            }
            if (response.statusCode() != 200) {
                throw new IllegalStateException("Ironflow's API answered " + response.statusCode() + " for node " + name);
            }
            JsonNode node = json.readTree(response.body());
            return Optional.of(new NodeView(node.path("uuid").asText(), node.path("name").asText(null),
                    node.path("provision_state").asText(null), node.path("power_state").asText(null),
                    node.path("retired").asBoolean(false), node.path("last_error").asText(null), node));
        } catch (IOException e) {
            throw new Unreachable("Ironflow's API cannot be reached at " + api + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
