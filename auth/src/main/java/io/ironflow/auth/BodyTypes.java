package io.ironflow.auth;

import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import java.util.Locale;
import java.util.Set;

/**
 * The media types a service reads request bodies in, per method and path: a POST, PUT or PATCH that carries a body
 * of another type (or of none) is refused with 415 before it is read. Requiring JSON is what makes a browser ask
 * first (a CORS preflight, which no Ironflow port answers) before another site's page can send it: the types a
 * page may send without asking are text/plain, application/x-www-form-urlencoded and multipart/form-data.
 */
@FunctionalInterface
public interface BodyTypes {

    /** JSON everywhere; a PATCH may also say {@code application/json-patch+json} (RFC 6902). */
    BodyTypes JSON = (method, path) -> method == HttpMethod.PATCH ? Set.of("application/json", "application/json-patch+json")
            : Set.of("application/json");

    /** The media types a body of {@code method} on {@code path} may have; empty: any type. */
    Set<String> accepted(HttpMethod method, String path);

    /** Why {@code request} is refused (415), or null. */
    default String refusal(HttpServerRequest request, String path) {
        HttpMethod method = request.method();
        if (!(method == HttpMethod.POST || method == HttpMethod.PUT || method == HttpMethod.PATCH) || !hasBody(request)) {
            return null;
        }
        Set<String> accepted = accepted(method, path);
        if (accepted.isEmpty()) {
            return null;
        }
        String type = request.getHeader(HttpHeaders.CONTENT_TYPE);
        String media = type == null ? "" : type.split(";", 2)[0].trim().toLowerCase(Locale.ROOT);
        if (accepted.contains(media)) {
            return null;
        }
        return "The request body must be " + String.join(" or ", accepted.stream().sorted().toList()) + ", not "
                + (type == null ? "a body without a Content-Type" : type);
    }

    private static boolean hasBody(HttpServerRequest request) {
        String length = request.getHeader(HttpHeaders.CONTENT_LENGTH);
        return request.getHeader(HttpHeaders.TRANSFER_ENCODING) != null || (length != null && !length.trim().equals("0"));
    }
}
