package io.ironflow.teardown.api;

import io.ironflow.teardown.status.AirshipStatus;
import io.ironflow.teardown.status.StepFailure;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;

/** A {@link StepFailure} is answered with its Airship status and that status's code. */
@Provider
public class StepFailureMapper implements ExceptionMapper<StepFailure> {

    @Override
    public Response toResponse(StepFailure failure) {
        AirshipStatus status = failure.status();
        return Response.status(status.code()).type(MediaType.APPLICATION_JSON).entity(status).build();
    }
}
