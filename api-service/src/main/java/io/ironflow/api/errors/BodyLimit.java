package io.ironflow.api.errors;

/** Ironic's request body limit: oslo.middleware's [oslo_middleware]max_request_body_size, 112 KiB by default. */
public final class BodyLimit {

    /** Bytes; quarkus.http.limits.max-body-size is set to the same (112K). */
    public static final long MAX_BYTES = 114_688;
    /** oslo.middleware's sizelimit message. */
    public static final String MESSAGE = "Request is too large. Larger than max_request_body_size (" + MAX_BYTES + ").";

    private BodyLimit() {
    }
}
