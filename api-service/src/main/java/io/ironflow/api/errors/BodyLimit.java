package io.ironflow.api.errors;

import io.quarkus.runtime.configuration.MemorySize;
import org.eclipse.microprofile.config.ConfigProvider;

/**
 * Ironic's request body limit: oslo.middleware's [oslo_middleware]max_request_body_size, 112 KiB (114,688 bytes)
 * by default. Configured once, as {@code quarkus.http.limits.max-body-size}, which Quarkus enforces too.
 */
public final class BodyLimit {

    /** Bytes. */
    public static final long MAX_BYTES = ConfigProvider.getConfig()
            .getOptionalValue("quarkus.http.limits.max-body-size", MemorySize.class)
            .map(MemorySize::asLongValue).orElse(114_688L);
    /** oslo.middleware's sizelimit message. */
    public static final String MESSAGE = "Request is too large. Larger than max_request_body_size (" + MAX_BYTES + ").";

    private BodyLimit() {
    }
}
