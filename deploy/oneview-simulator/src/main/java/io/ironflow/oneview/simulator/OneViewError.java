package io.ironflow.oneview.simulator;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * A refusal in OneView's own shape: the HTTP status and an ErrorMessage body
 * ({@code errorCode, message, details, recommendedActions, nestedErrors}).
 */
public final class OneViewError extends RuntimeException {

    private final int status;
    private final String errorCode;
    private final String recommendedAction;

    public OneViewError(int status, String errorCode, String message, String recommendedAction) {
        super(message);
        this.status = status;
        this.errorCode = errorCode;
        this.recommendedAction = recommendedAction;
    }

    public static OneViewError notFound(String uri) {
        return new OneViewError(404, "RESOURCE_NOT_FOUND", "The resource " + uri + " was not found.",
                "Check the URI and try again.");
    }

    public static OneViewError badRequest(String errorCode, String message) {
        return new OneViewError(400, errorCode, message, "Correct the request and try again.");
    }

    public int status() {
        return status;
    }

    public String errorCode() {
        return errorCode;
    }

    public JsonObject body() {
        return body(errorCode, getMessage(), recommendedAction);
    }

    static JsonObject body(String errorCode, String message, String recommendedAction) {
        return new JsonObject()
                .put("errorCode", errorCode)
                .put("message", message)
                .put("details", "")
                .put("recommendedActions", recommendedAction == null ? new JsonArray() : new JsonArray().add(recommendedAction))
                .put("nestedErrors", new JsonArray())
                .put("errorSource", null)
                .put("data", new JsonObject());
    }
}
