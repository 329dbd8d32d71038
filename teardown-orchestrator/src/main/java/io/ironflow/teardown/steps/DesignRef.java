package io.ironflow.teardown.steps;

import io.ironflow.teardown.status.StepFailure;
import java.net.URI;
import java.net.URISyntaxException;

/**
 * The design reference the spec's etcd steps take: {@code {rel: "design", href:
 * "deckhand+https://.../revisions/{rev}/rendered-documents", type: "application/x-yaml"}} as a body, or the bare
 * {@code href} as the {@code design_ref} query parameter. The orchestrator finds its etcd cluster through its own
 * configuration, so the reference is checked for its shape and carried into messages, not fetched.
 */
public record DesignRef(String rel, String href, String type) {

    /** A 400 with {@code reason} unless the reference has a {@code design} rel and an absolute href. */
    public DesignRef validated(String reason) {
        if (rel != null && !"design".equals(rel)) {
            throw new StepFailure(400, reason, "the design reference's rel must be \"design\", not \"" + rel + "\"");
        }
        requireHref(href, reason);
        return this;
    }

    public static DesignRef ofHref(String href, String reason) {
        return new DesignRef("design", href, "application/x-yaml").validated(reason);
    }

    private static void requireHref(String href, String reason) {
        if (href == null || href.isBlank()) {
            throw new StepFailure(400, reason, "a design reference (its href) is required");
        }
        try {
            if (!new URI(href).isAbsolute()) {
                throw new StepFailure(400, reason, "the design reference href must be an absolute URL: " + href);
            }
        } catch (URISyntaxException e) {
            throw new StepFailure(400, reason, "the design reference href is not a URL: " + href);
        }
    }
}
