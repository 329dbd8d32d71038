package io.ironflow.teardown.status;

import java.util.List;

/**
 * A teardown step that did not succeed, as the Airship status it is answered with: the HTTP code, the reason
 * the spec names for it (BadRequest, NotFound, Conflict, DrainNodeError, ...), a terse message and the details.
 */
public class StepFailure extends RuntimeException {

    private final transient AirshipStatus status;

    public StepFailure(int code, String reason, String message, List<StatusMessage> messages) {
        super(reason + ": " + message);
        this.status = AirshipStatus.failure(code, reason, message, messages);
    }

    public StepFailure(int code, String reason, String message) {
        this(code, reason, message, List.of());
    }

    public AirshipStatus status() {
        return status;
    }

    public static StepFailure badRequest(String message) {
        return new StepFailure(400, "BadRequest", message, List.of(StatusMessage.error(null, message)));
    }

    public static StepFailure notFound(String message) {
        return new StepFailure(404, "NotFound", message, List.of(StatusMessage.error(null, message)));
    }
}
