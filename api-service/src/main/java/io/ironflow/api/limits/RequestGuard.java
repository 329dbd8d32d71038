package io.ironflow.api.limits;

import io.ironflow.api.errors.BodyLimit;
import io.ironflow.api.errors.IronicErrors;
import io.ironflow.api.errors.RequestText;
import io.ironflow.api.versions.ApiVersion;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import io.netty.handler.codec.http.HttpResponseStatus;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.UUID;
import org.jboss.logging.Logger;

/**
 * What is refused before any resource sees a request, in Ironic's error shape (Quarkus' own refusals have an
 * empty body): a body larger than Ironic's limit (413, oslo.middleware's sizelimit), and a URL whose
 * percent-encoding is broken, decodes to a NUL character (which PostgreSQL cannot take in any text) or is not
 * UTF-8, or that {@code java.net.URI} cannot parse (400). Runs first on the router, so the 413 is decided on the
 * declared length before anything is read.
 */
@ApplicationScoped
public class RequestGuard {

    private static final Logger LOG = Logger.getLogger(RequestGuard.class);

    void install(@Observes Router router) {
        router.route().order(Integer.MIN_VALUE).handler(RequestGuard::guard).failureHandler(RequestGuard::failed);
    }

    /**
     * A request the router itself failed (Vert.x refuses a URL it cannot decode with a bare 400 before any
     * handler runs) or a failure no resource answered: Ironic's shape too. Unforeseen ones are 500 with the fixed
     * message, logged with a request id.
     */
    static void failed(RoutingContext context) {
        if (context.response().headWritten()) {
            context.next();
            return;
        }
        int status = context.statusCode();
        if (status >= 400 && status < 500) {
            String message = switch (status) {
                case 400 -> "The request URL is not valid: it cannot be decoded.";
                case 413 -> BodyLimit.MESSAGE;
                default -> HttpResponseStatus.valueOf(status).reasonPhrase() + ".";
            };
            refuse(context, status, message);
            return;
        }
        String requestId = "req-" + UUID.randomUUID();
        LOG.errorf(context.failure(), "request %s failed in the HTTP layer with status %d", requestId, status);
        context.response().putHeader(IronicErrors.REQUEST_ID_HEADER, requestId);
        refuse(context, 500, IronicErrors.INTERNAL_ERROR);
    }

    static void guard(RoutingContext context) {
        String length = context.request().getHeader(HttpHeaders.CONTENT_LENGTH);
        if (length != null && declaredLength(length) > BodyLimit.MAX_BYTES) {
            refuse(context, 413, BodyLimit.MESSAGE);
            return;
        }
        String problem = urlProblem(context.request().uri());
        if (problem != null) {
            refuse(context, 400, "The request URL is not valid: " + problem + ".");
            return;
        }
        if (length == null && context.request().getHeader(HttpHeaders.TRANSFER_ENCODING) != null) {
            readUndeclaredBody(context);
            return;
        }
        context.next();
    }

    /**
     * A body without a declared length (chunked) is read here, up to the limit, and handed on in the routing
     * context, where the resources read it. Left to Quarkus, going over the limit would end the request with a
     * bare 413.
     */
    @SuppressWarnings("deprecation") // RoutingContext.setBody: what the resources' body reader looks at first
    private static void readUndeclaredBody(RoutingContext context) {
        HttpServerRequest request = context.request();
        Buffer body = Buffer.buffer();
        if (request.isEnded()) {
            context.setBody(body);
            context.next();
            return;
        }
        boolean[] refused = {false};
        request.handler(chunk -> {
            if (refused[0]) {
                return;
            }
            if (body.length() + chunk.length() > BodyLimit.MAX_BYTES) {
                refused[0] = true;
                refuse(context, 413, BodyLimit.MESSAGE);
                return;
            }
            body.appendBuffer(chunk);
        });
        request.endHandler(ended -> {
            if (!refused[0]) {
                context.setBody(body);
                context.next();
            }
        });
        request.exceptionHandler(error -> {
            if (!refused[0] && !context.response().headWritten()) {
                refused[0] = true;
                refuse(context, 400, "The request body could not be read.");
            }
        });
        request.resume(); // Quarkus pauses every request until a handler reads it
    }

    private static long declaredLength(String header) {
        try {
            return Long.parseLong(header.trim());
        } catch (NumberFormatException e) {
            return Long.MAX_VALUE; // not a length: nothing to read a body by, so it is refused as too large
        }
    }

    /** Why the raw request target cannot be taken, or null. */
    static String urlProblem(String uri) {
        if (uri == null) {
            return null;
        }
        try {
            new URI(uri); // the check Quarkus makes itself unless vertx.disableURIValidation is set (see ApiMain)
        } catch (URISyntaxException e) {
            String percent = percentProblem(uri);
            return percent != null ? percent : "it is not a valid URI (" + RequestText.excerpt(e.getReason()) + ")";
        }
        return percentProblem(uri);
    }

    private static String percentProblem(String uri) {
        ByteBuffer decoded = ByteBuffer.allocate(uri.length() * 3);
        for (int i = 0; i < uri.length(); i++) {
            char c = uri.charAt(i);
            if (c == '%') {
                int high = i + 1 < uri.length() ? Character.digit(uri.charAt(i + 1), 16) : -1;
                int low = i + 2 < uri.length() ? Character.digit(uri.charAt(i + 2), 16) : -1;
                if (high < 0 || low < 0) {
                    return "'%' must be followed by two hexadecimal digits";
                }
                byte b = (byte) (high * 16 + low);
                if (b == 0) {
                    return "it contains a NUL character (%00)";
                }
                decoded.put(b);
                i += 2;
            } else if (c == 0) {
                return "it contains a NUL character";
            } else {
                decoded.put(String.valueOf(c).getBytes(StandardCharsets.UTF_8));
            }
        }
        decoded.flip();
        try {
            StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(decoded);
        } catch (CharacterCodingException e) {
            return "it is not UTF-8 once percent-decoded";
        }
        return null;
    }

    private static void refuse(RoutingContext context, int status, String faultstring) {
        context.response()
                .setStatusCode(status)
                .putHeader(HttpHeaders.CONTENT_TYPE, "application/json")
                .putHeader(ApiVersion.MIN_HEADER, ApiVersion.MIN.toString())
                .putHeader(ApiVersion.MAX_HEADER, ApiVersion.MAX.toString())
                // the body (if any) is not read: the connection cannot carry another request after it
                .putHeader(HttpHeaders.CONNECTION, "close")
                .end(IronicErrors.body(status, faultstring));
    }
}
