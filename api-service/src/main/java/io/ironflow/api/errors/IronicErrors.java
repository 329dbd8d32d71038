package io.ironflow.api.errors;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import io.ironflow.schemas.SecretFields;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import org.jboss.logging.Logger;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

/**
 * Every error leaves in Ironic's shape, which every Ironic client parses: {@code {"error_message": "<JSON text
 * of {faultcode, faultstring, debuginfo}>"}}, the inner document encoded as a string (ironic/api/method.py).
 */
public class IronicErrors {

    /** What a client is told of a failure the API did not foresee: nothing of its internals. */
    public static final String INTERNAL_ERROR = "An internal server error occurred.";
    /** What a client is told while the node database is not reachable (restarting, say). */
    public static final String DEPENDENCY_DOWN = "The node database is not reachable now; please retry later.";
    /** The response header naming a request, as Ironic's request-id middleware does. */
    public static final String REQUEST_ID_HEADER = "X-OpenStack-Request-Id";

    private static final Logger LOG = Logger.getLogger(IronicErrors.class);
    private static final ObjectMapper JSON = new ObjectMapper();

    @ServerExceptionMapper
    public Response apiError(ApiError error) {
        return response(error.status(), error.getMessage());
    }

    @ServerExceptionMapper
    public Response webApplication(WebApplicationException error) {
        int status = error.getResponse().getStatus();
        if (status >= 500) {
            return internal(error);
        }
        String message = switch (status) {
            case 400 -> "The request is malformed.";
            case 404 -> "The resource could not be found.";
            case 405 -> "The method is not allowed for this resource.";
            case 406 -> "The requested media type is not acceptable; ask for application/json.";
            case 413 -> BodyLimit.MESSAGE;
            case 415 -> "The request's media type is not supported; send application/json.";
            default -> Response.Status.fromStatusCode(status) != null
                    ? Response.Status.fromStatusCode(status).getReasonPhrase() + "." : "The request was refused.";
        };
        return response(status, message);
    }

    /**
     * Anything else is a fault of the API itself: the client gets a fixed message and a request id; the log gets
     * the exception under that id. Every input the fuzz suite (ApiFuzzTest) sends is answered before this.
     */
    @ServerExceptionMapper
    public Response unexpected(Throwable error) {
        if (DependencyDown.causes(error)) {
            LOG.warnf("answering 503, a dependency is not reachable: %s", error.toString());
            return response(503, DEPENDENCY_DOWN);
        }
        return internal(error);
    }

    private static Response internal(Throwable error) {
        String requestId = "req-" + UUID.randomUUID();
        LOG.errorf(error, "request %s failed with an unexpected error", requestId);
        return Response.fromResponse(response(500, INTERNAL_ERROR)).header(REQUEST_ID_HEADER, requestId).build();
    }

    public static Response response(int status, String faultstring) {
        return Response.status(status).type(MediaType.APPLICATION_JSON).entity(body(status, faultstring)).build();
    }

    /** Ironic's error document for {@code status}: faultcode Client below 500, Server from 500. */
    public static String body(int status, String faultstring) {
        Map<String, Object> fault = new LinkedHashMap<>();
        fault.put("faultcode", status < 500 ? "Client" : "Server");
        fault.put("faultstring", SecretFields.text(faultstring)); // a message may quote what it refuses
        fault.put("debuginfo", null);
        try {
            return JSON.writeValueAsString(Map.of("error_message", JSON.writeValueAsString(fault)));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
