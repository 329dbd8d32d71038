package io.ironflow.registry;

import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.vertx.http.runtime.security.HttpSecurityPolicy;
import io.smallrye.mutiny.Uni;
import io.vertx.ext.web.RoutingContext;
import javax.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * With {@code ironflow.registry.users-only=true} (set at run time by the secure stack), every request but health
 * needs an authenticated user: HTTP basic auth against the users of {@code quarkus.security.users.embedded.users}.
 * Quarkus 2.16 fixes path permissions at build time; this policy, which Quarkus applies to every request, lets the
 * same build serve the open local stack and the secure one. A denied anonymous request is answered 401 with a
 * challenge, a denied user 403.
 */
@ApplicationScoped
public class UsersOnlyPolicy implements HttpSecurityPolicy {

    @ConfigProperty(name = "ironflow.registry.users-only", defaultValue = "false")
    boolean usersOnly;

    @Override
    public Uni<CheckResult> checkPermission(RoutingContext request, Uni<SecurityIdentity> identity,
            AuthorizationRequestContext context) {
        String path = request.normalizedPath();
        if (!usersOnly || path.equals("/health") || path.startsWith("/health/")) {
            return Uni.createFrom().item(CheckResult.PERMIT);
        }
        return identity.map(who -> who.isAnonymous() ? CheckResult.DENY : CheckResult.PERMIT);
    }
}
