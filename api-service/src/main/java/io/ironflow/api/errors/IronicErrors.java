package io.ironflow.api.errors;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jboss.logging.Logger;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

/**
 * Every error leaves in Ironic's shape, which every Ironic client parses: {@code {"error_message": "<JSON text
 * of {faultcode, faultstring, debuginfo}>"}}, the inner document encoded as a string (ironic/api/method.py).
 */
public class IronicErrors {

    private static final Logger LOG = Logger.getLogger(IronicErrors.class);
    private static final ObjectMapper JSON = new ObjectMapper();

    @ServerExceptionMapper
    public Response apiError(ApiError error) {
        return response(error.status(), error.getMessage());
    }

    @ServerExceptionMapper
    public Response webApplication(WebApplicationException error) {
        int status = error.getResponse().getStatus();
        String message = switch (status) {
            case 404 -> "The resource could not be found.";
            case 405 -> "The method is not allowed for this resource.";
            case 415 -> "The request's media type is not supported; send application/json.";
            default -> error.getMessage();
        };
        return response(status, message);
    }

    @ServerExceptionMapper
    public Response unexpected(Exception error) {
        LOG.error("unexpected error", error);
        return response(500, "An unexpected error occurred: " + error);
    }

    public static Response response(int status, String faultstring) {
        Map<String, Object> fault = new LinkedHashMap<>();
        fault.put("faultcode", status < 500 ? "Client" : "Server");
        fault.put("faultstring", faultstring);
        fault.put("debuginfo", null);
        try {
            String body = JSON.writeValueAsString(Map.of("error_message", JSON.writeValueAsString(fault)));
            return Response.status(status).type(MediaType.APPLICATION_JSON).entity(body).build();
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
