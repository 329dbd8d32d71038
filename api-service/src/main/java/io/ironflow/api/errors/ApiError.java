package io.ironflow.api.errors;

/** A request the API answers with an error status and Ironic's error body; nothing has changed. */
public final class ApiError extends RuntimeException {

    private final int status;

    public ApiError(int status, String message) {
        super(message, null, false, false);
        this.status = status;
    }

    public static ApiError badRequest(String message) {
        return new ApiError(400, message);
    }

    public static ApiError notFound(String message) {
        return new ApiError(404, message);
    }

    public static ApiError unavailable(String message) {
        return new ApiError(503, message);
    }

    public int status() {
        return status;
    }
}
