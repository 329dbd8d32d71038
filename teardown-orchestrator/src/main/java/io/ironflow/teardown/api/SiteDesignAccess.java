package io.ironflow.teardown.api;

import io.ironflow.auth.HttpAuthentication;
import io.ironflow.policy.Principal;
import io.ironflow.teardown.status.StepFailure;
import io.quarkus.vertx.http.runtime.CurrentVertxRequest;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * Shipyard's policy defaults (shipyard_airflow/policy.py) for the site design, stricter than the port's own rule
 * (system readers read, {@link HttpAuthentication#systemOperator}): configdocs, their status and the documents
 * rendered from them hold the site's secrets, and {@code workflow_orchestrator:get_configdocs},
 * {@code get_configdocs_status} and {@code get_renderedconfigdocs} are {@code rule:admin_required}
 * ({@code role:admin}). Anyone else is refused 403, in an Airship status document.
 */
@ApplicationScoped
public class SiteDesignAccess {

    private final CurrentVertxRequest request;

    SiteDesignAccess(CurrentVertxRequest request) {
        this.request = request;
    }

    /** Refuses the current caller unless it may read the site design under Shipyard's {@code rule}. */
    void requireReader(String rule) {
        Principal who = request.getCurrent() == null ? null : HttpAuthentication.principal(request.getCurrent());
        if (!mayRead(who)) {
            throw new StepFailure(403, "Forbidden", "Access was denied to the following resource: " + rule
                    + " (Shipyard's rule:admin_required)");
        }
    }

    /** Shipyard's admin_required: the admin role (the port has already required system scope). */
    static boolean mayRead(Principal who) {
        return who != null && who.hasRole("admin");
    }
}
