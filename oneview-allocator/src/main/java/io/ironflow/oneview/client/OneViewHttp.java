package io.ironflow.oneview.client;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.NullNode;
import io.smallrye.faulttolerance.api.ExponentialBackoff;
import jakarta.enterprise.context.ApplicationScoped;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.eclipse.microprofile.faulttolerance.Retry;
import org.jboss.logging.Logger;

/**
 * One OneView REST exchange, with the appliance's session rules: every call sends {@code X-API-Version} and the
 * session in {@code auth}; a 401 logs in again once (sessions expire) and repeats the call. A 5xx, a timeout or
 * a broken connection (or an answer whose body stalls: the whole answer has the request timeout) is
 * {@link OneViewUnavailable}, retried with exponential backoff a bounded number of times
 * (SmallRye Fault Tolerance; {@code io.ironflow.oneview.client.OneViewHttp/exchange/Retry/maxRetries} etc. tune
 * it); any other 4xx is a {@link OneViewFailure} carrying OneView's message.
 */
@ApplicationScoped
public class OneViewHttp {

    private static final Logger LOG = Logger.getLogger(OneViewHttp.class);

    /** An answer: status, the Location and ETag headers, and the JSON body (NullNode when empty). */
    public record Answer(int status, String location, String etag, JsonNode body) {
    }

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final ObjectMapper json;
    private final URI base;
    private final String userName;
    private final String password;
    private final String apiVersion;
    private final Duration requestTimeout;
    private volatile String session;

    OneViewHttp(ObjectMapper json,
            @ConfigProperty(name = "ironflow.oneview.url") URI base,
            @ConfigProperty(name = "ironflow.oneview.username") String userName,
            @ConfigProperty(name = "ironflow.oneview.password") String password,
            @ConfigProperty(name = "ironflow.oneview.api-version") int apiVersion,
            @ConfigProperty(name = "ironflow.oneview.request-timeout") Duration requestTimeout) {
        this.json = json;
        this.base = base;
        this.userName = userName;
        this.password = password;
        this.apiVersion = String.valueOf(apiVersion);
        this.requestTimeout = requestTimeout;
    }

    @Retry(maxRetries = 5, delay = 200, jitter = 100, maxDuration = 60, durationUnit = ChronoUnit.SECONDS,
            retryOn = OneViewUnavailable.class, abortOn = OneViewFailure.class)
    @ExponentialBackoff(factor = 2, maxDelay = 5, maxDelayUnit = ChronoUnit.SECONDS)
    public Answer exchange(String method, String path, Object body, String ifMatch) {
        String used = session != null ? session : logIn(null);
        Answer answer = send(method, path, body, ifMatch, used);
        if (answer.status() == 401) {
            LOG.infof("OneView answered 401 to %s %s: logging in again", method, path);
            answer = send(method, path, body, ifMatch, logIn(used));
        }
        return check(method, path, answer);
    }

    /** Logs in unless another caller already replaced the {@code stale} session; returns the session to use. */
    synchronized String logIn(String stale) {
        if (session != null && !session.equals(stale)) {
            return session;
        }
        Answer answer = check("POST", "/rest/login-sessions",
                send("POST", "/rest/login-sessions", Map.of("userName", userName, "password", password), null, null));
        session = answer.body().path("sessionID").asText(null);
        if (session == null) {
            throw new OneViewFailure(answer.status(), "NO_SESSION", "OneView answered the login without a sessionID.");
        }
        return session;
    }

    /**
     * Where {@code path} (a path, or a URI OneView or a node's fields gave) is on the appliance. Only its REST API:
     * every request carries the session, an administrator's, and a node's server_hardware_uri or template URI is
     * any text a member of the node's project may set. An absolute URI or {@code //host} elsewhere, another scheme
     * or port, user info, or a path outside {@code /rest/} (after {@code ..} is resolved) is refused, not sent.
     */
    URI target(String path) {
        URI target;
        try {
            target = base.resolve(path).normalize();
        } catch (IllegalArgumentException e) {
            throw new OneViewFailure(400, "INVALID_URI", "'" + abbreviate(path) + "' is not a URI: " + e.getMessage());
        }
        boolean appliance = base.getScheme().equalsIgnoreCase(target.getScheme()) && target.getRawUserInfo() == null
                && base.getHost() != null && base.getHost().equalsIgnoreCase(target.getHost()) && port(base) == port(target)
                && target.getRawPath() != null && target.getRawPath().startsWith("/rest/");
        if (!appliance) {
            throw new OneViewFailure(400, "INVALID_URI", "'" + abbreviate(path) + "' is not a URI of the OneView appliance's"
                    + " REST API (" + base.resolve("/rest/") + "...); nothing was sent to it.");
        }
        return target;
    }

    private static int port(URI uri) {
        return uri.getPort() != -1 ? uri.getPort() : "https".equalsIgnoreCase(uri.getScheme()) ? 443 : 80;
    }

    private static String abbreviate(String text) {
        return text.length() > 200 ? text.substring(0, 200) + "..." : text;
    }

    private Answer send(String method, String path, Object body, String ifMatch, String auth) {
        HttpRequest.Builder request = HttpRequest.newBuilder(target(path))
                .timeout(requestTimeout)
                .header("X-API-Version", apiVersion)
                .header("Accept", "application/json");
        if (auth != null) {
            request.header("auth", auth);
        }
        if (ifMatch != null) {
            request.header("If-Match", ifMatch);
        }
        try {
            if (body != null) {
                request.header("Content-Type", "application/json")
                        .method(method, HttpRequest.BodyPublishers.ofByteArray(json.writeValueAsBytes(body)));
            } else {
                request.method(method, HttpRequest.BodyPublishers.noBody());
            }
            HttpResponse<byte[]> response = whole(http.sendAsync(request.build(), HttpResponse.BodyHandlers.ofByteArray()),
                    method, path);
            return new Answer(response.statusCode(), response.headers().firstValue("Location").orElse(null),
                    response.headers().firstValue("ETag").orElse(null), body(method, path, response));
        } catch (IOException e) {
            throw new OneViewUnavailable("OneView did not answer " + method + " " + path + ": " + e, e);
        }
    }

    /**
     * The whole answer, its body included, within the request timeout (and a second for the body's last bytes):
     * the JDK's own timeout ends when the headers arrive, and a body that stalls after them (an appliance failing
     * over, a proxy) would hold the worker and its node's lane for ever. The exchange is cancelled on timeout.
     */
    private HttpResponse<byte[]> whole(CompletableFuture<HttpResponse<byte[]>> answer, String method, String path)
            throws IOException {
        try {
            return answer.get(requestTimeout.toMillis() + 1000, TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            answer.cancel(true);
            throw new OneViewUnavailable("OneView did not answer " + method + " " + path + " within " + requestTimeout, e);
        } catch (InterruptedException e) {
            answer.cancel(true);
            Thread.currentThread().interrupt();
            throw new OneViewUnavailable("interrupted while calling OneView", e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof IOException io) {
                throw io;
            }
            throw new OneViewUnavailable("OneView did not answer " + method + " " + path + ": " + e.getCause(), e.getCause());
        }
    }

    /**
     * The answer's JSON. A 5xx whose body is not JSON (the HTML page of a proxy in front of the appliance, or of
     * one restarting) is unavailable, retried as any 5xx; any other answer that is not JSON is a failure.
     */
    private JsonNode body(String method, String path, HttpResponse<byte[]> response) {
        try {
            return response.body().length == 0 ? NullNode.getInstance() : json.readTree(response.body());
        } catch (IOException e) {
            if (response.statusCode() >= 500) {
                throw new OneViewUnavailable("OneView answered " + response.statusCode() + " to " + method + " " + path
                        + " (not JSON)", null);
            }
            throw new OneViewFailure(response.statusCode(), "BAD_ANSWER", "OneView's answer to " + method + " " + path
                    + " is not JSON: " + (e instanceof JsonProcessingException bad ? bad.getOriginalMessage() : e));
        }
    }

    private static Answer check(String method, String path, Answer answer) {
        int status = answer.status();
        if (status >= 500) {
            throw new OneViewUnavailable("OneView answered " + status + " to " + method + " " + path + ": "
                    + answer.body().path("message").asText(""), null);
        }
        if (status >= 400) {
            throw new OneViewFailure(status, answer.body().path("errorCode").asText(""),
                    answer.body().path("message").asText("OneView answered " + status + " to " + method + " " + path));
        }
        if (status < 200 || status >= 300) { // a redirect or an empty 204 from something in between: no answer at all
            throw new OneViewFailure(status, "UNEXPECTED_STATUS", "OneView answered " + status + " to " + method + " " + path
                    + ", which is neither an answer nor an error.");
        }
        return answer;
    }
}
