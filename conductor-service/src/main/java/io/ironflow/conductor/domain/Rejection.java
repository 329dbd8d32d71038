package io.ironflow.conductor.domain;

/**
 * A command the conductor refuses; nothing changes. {@code code} is the HTTP status the API answers with,
 * {@code message} Ironic's faultstring.
 */
public final class Rejection extends RuntimeException {

    private final int code;

    public Rejection(int code, String message) {
        super(message, null, false, false);
        this.code = code;
    }

    public static Rejection badRequest(String message) {
        return new Rejection(400, message);
    }

    public static Rejection notFound(String message) {
        return new Rejection(404, message);
    }

    public static Rejection conflict(String message) {
        return new Rejection(409, message);
    }

    public int code() {
        return code;
    }
}
