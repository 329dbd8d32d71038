package io.ironflow.teardown.api;

import com.fasterxml.jackson.core.JsonProcessingException;
import io.ironflow.teardown.status.AirshipStatus;
import io.ironflow.teardown.status.StatusMessage;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;
import java.util.List;
import org.jboss.logging.Logger;

/**
 * Every other error in the Airship status shape too: the framework's own refusals keep their code (unknown path
 * 404, wrong method 405, unreadable body 400) and an unexpected exception is a 500 that names no internals.
 */
@Provider
public class AirshipErrorMapper implements ExceptionMapper<Exception> {

    private static final Logger LOG = Logger.getLogger(AirshipErrorMapper.class);

    @Override
    public Response toResponse(Exception exception) {
        int code;
        String message;
        if (exception instanceof WebApplicationException web) {
            code = web.getResponse().getStatus();
            message = code == 400 ? "the request cannot be read: " + exception.getMessage() : exception.getMessage();
        } else if (exception instanceof JsonProcessingException json) {
            code = 400;
            message = "the request body is not valid JSON for this endpoint: " + json.getOriginalMessage();
        } else {
            LOG.error("unexpected error", exception);
            code = 500;
            message = "internal error; see the orchestrator's log";
        }
        Response.Status status = Response.Status.fromStatusCode(code);
        String reason = status == null ? "Error" : status.getReasonPhrase().replace(" ", "");
        AirshipStatus body = AirshipStatus.failure(code, reason, message, List.of(StatusMessage.error(null, message)));
        return Response.status(code).type(MediaType.APPLICATION_JSON).entity(body).build();
    }
}
