package io.ironflow.teardown.etcd;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ironflow.teardown.http.WholeAnswers;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * etcd's v3 JSON gateway over HTTP: member list and remove, per-member {@code /health}, and whether a member
 * sees a leader ({@code /v3/maintenance/status}). The cluster is found through {@code ironflow.teardown.etcd.endpoints}
 * (comma-separated client URLs; the first that answers is used); members are then asked at their own client URLs.
 */
@ApplicationScoped
public class EtcdGateway {

    /** What a member's {@code /health} said. */
    public enum Health { HEALTHY, UNHEALTHY, UNREACHABLE }

    /** No configured endpoint answered the member list. */
    public static class Unreachable extends Exception {
        Unreachable(String message) {
            super(message);
        }
    }

    /** A member answered {@code /health} with something that is not etcd's health document. */
    public static class InvalidHealth extends Exception {
        InvalidHealth(String message) {
            super(message);
        }
    }

    private static final Duration CALL_TIMEOUT = Duration.ofSeconds(5);
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    @Inject
    ObjectMapper json;

    @ConfigProperty(name = "ironflow.teardown.etcd.endpoints")
    List<String> endpoints;

    public List<EtcdMember> members() throws Unreachable {
        List<String> errors = new ArrayList<>();
        for (String endpoint : endpoints) {
            try {
                JsonNode answer = post(endpoint, "/v3/cluster/member/list", "{}");
                if (!answer.path("members").isArray()) {
                    // an answer without the list is no evidence that a node runs no member
                    throw new IOException("answered no member list: " + abbreviate(answer.toString()));
                }
                List<EtcdMember> members = new ArrayList<>();
                for (JsonNode m : answer.path("members")) {
                    members.add(new EtcdMember(m.path("ID").asText(), m.path("name").asText(""), texts(m.path("peerURLs")),
                            texts(m.path("clientURLs")), m.path("isLearner").asBoolean(false)));
                }
                return members;
            } catch (IOException e) {
                errors.add(endpoint + ": " + e.getMessage());
            }
        }
        throw new Unreachable("no etcd endpoint answered the member list " + errors);
    }

    /** The member's health, by its first client URL. */
    public Health health(EtcdMember member) throws InvalidHealth {
        if (member.clientUrls().isEmpty()) {
            return Health.UNREACHABLE;
        }
        String body;
        try {
            HttpResponse<String> response = WholeAnswers.send(http, HttpRequest.newBuilder(URI.create(member.clientUrls().get(0)
                    + "/health")).timeout(CALL_TIMEOUT).GET().build());
            body = response.body();
        } catch (IOException e) {
            return Health.UNREACHABLE;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Health.UNREACHABLE;
        }
        JsonNode health;
        try {
            health = json.readTree(body).get("health");
        } catch (IOException e) {
            health = null;
        }
        if (health == null || !(health.asText().equals("true") || health.asText().equals("false"))) {
            throw new InvalidHealth("member " + member.label() + " answered an invalid health document: " + abbreviate(body));
        }
        return health.asText().equals("true") ? Health.HEALTHY : Health.UNHEALTHY;
    }

    /** Whether the member answers its status with a leader. */
    public boolean seesLeader(EtcdMember member) {
        try {
            JsonNode status = post(member.clientUrls().get(0), "/v3/maintenance/status", "{}");
            String leader = status.path("leader").asText("0");
            return !leader.isEmpty() && !leader.equals("0");
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    /** Removes the member; null when done, else etcd's error (e.g. "etcdserver: unhealthy cluster"). */
    public String remove(EtcdMember member) throws Unreachable {
        List<String> errors = new ArrayList<>();
        for (String endpoint : endpoints) {
            try {
                JsonNode answer = post(endpoint, "/v3/cluster/member/remove", json.createObjectNode().put("ID", member.id()).toString());
                if (answer.has("error")) {
                    return answer.path("error").asText();
                }
                return null;
            } catch (Refused e) {
                return e.getMessage();
            } catch (IOException e) {
                errors.add(endpoint + ": " + e.getMessage());
            }
        }
        throw new Unreachable("no etcd endpoint answered the member removal " + errors);
    }

    /**
     * etcd answered with an error status: the gateway's error document says why ({@code message}, and {@code error}
     * before etcd 3.5).
     */
    static class Refused extends IOException {
        Refused(String message) {
            super(message);
        }
    }

    private JsonNode post(String endpoint, String path, String body) throws IOException {
        try {
            HttpResponse<String> response = WholeAnswers.send(http, HttpRequest.newBuilder(URI.create(endpoint + path))
                    .timeout(CALL_TIMEOUT).header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(body)).build());
            if (response.statusCode() / 100 != 2) {
                throw new Refused(refusal(response));
            }
            return json.readTree(response.body());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
    }

    private String refusal(HttpResponse<String> response) {
        try {
            JsonNode error = json.readTree(response.body());
            String message = error.path("message").asText(error.path("error").asText(""));
            if (!message.isEmpty()) {
                return message;
            }
        } catch (IOException e) {
            // not the gateway's document (a proxy's page): its status and text say what there is to say
        }
        return "HTTP " + response.statusCode() + ": " + abbreviate(response.body());
    }

    private static List<String> texts(JsonNode array) {
        List<String> values = new ArrayList<>();
        array.forEach(v -> values.add(v.asText()));
        return values;
    }

    private static String abbreviate(String text) {
        return text == null ? "nothing" : text.length() > 200 ? text.substring(0, 200) + "..." : text;
    }
}
