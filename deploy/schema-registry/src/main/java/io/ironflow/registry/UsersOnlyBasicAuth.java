package io.ironflow.registry;

import io.netty.handler.codec.http.HttpHeaderNames;
import io.quarkus.security.AuthenticationFailedException;
import io.quarkus.security.credential.PasswordCredential;
import io.quarkus.security.identity.IdentityProviderManager;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.security.identity.request.AuthenticationRequest;
import io.quarkus.security.identity.request.UsernamePasswordAuthenticationRequest;
import io.quarkus.vertx.http.runtime.security.ChallengeData;
import io.quarkus.vertx.http.runtime.security.HttpAuthenticationMechanism;
import io.quarkus.vertx.http.runtime.security.HttpSecurityUtils;
import io.smallrye.mutiny.Uni;
import io.vertx.ext.web.RoutingContext;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Set;
import javax.annotation.Priority;
import javax.enterprise.context.ApplicationScoped;
import javax.enterprise.inject.Alternative;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * HTTP basic auth for the secure stack's registry, ahead of Apicurio's own mechanism (OIDC, off here, whose
 * challenge fails when its tenant is disabled). With {@code ironflow.registry.users-only=true}, a request that
 * {@link UsersOnlyPolicy} asks about is authenticated by its {@code Authorization: Basic} header against Quarkus's
 * embedded users, and refused (401, {@code WWW-Authenticate: Basic}) without one or with a wrong password.
 * Otherwise it stays out of the way.
 */
@Alternative
@Priority(10) // Apicurio's mechanism is an alternative (priority 1), which hides every mechanism that is not one
@ApplicationScoped
public class UsersOnlyBasicAuth implements HttpAuthenticationMechanism {

    private static final String REALM = "Basic realm=\"ironflow-registry\"";

    @ConfigProperty(name = "ironflow.registry.users-only", defaultValue = "false")
    boolean usersOnly;

    @Override
    public Uni<SecurityIdentity> authenticate(RoutingContext context, IdentityProviderManager identities) {
        if (!usersOnly) {
            return Uni.createFrom().nullItem();
        }
        String header = context.request().getHeader(HttpHeaderNames.AUTHORIZATION);
        if (header == null || !header.regionMatches(true, 0, "Basic ", 0, 6)) {
            return Uni.createFrom().failure(new AuthenticationFailedException("no basic credentials"));
        }
        String decoded;
        try {
            decoded = new String(Base64.getDecoder().decode(header.substring(6).trim()), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            return Uni.createFrom().failure(new AuthenticationFailedException("malformed basic credentials"));
        }
        int colon = decoded.indexOf(':');
        if (colon < 1) {
            return Uni.createFrom().failure(new AuthenticationFailedException("malformed basic credentials"));
        }
        AuthenticationRequest request = new UsernamePasswordAuthenticationRequest(decoded.substring(0, colon),
                new PasswordCredential(decoded.substring(colon + 1).toCharArray()));
        return identities.authenticate(HttpSecurityUtils.setRoutingContextAttribute(request, context));
    }

    @Override
    public Uni<ChallengeData> getChallenge(RoutingContext context) {
        return Uni.createFrom().item(new ChallengeData(401, HttpHeaderNames.WWW_AUTHENTICATE, REALM));
    }

    @Override
    public Set<Class<? extends AuthenticationRequest>> getCredentialTypes() {
        return Set.of(UsernamePasswordAuthenticationRequest.class);
    }

    /** Before Quarkus's own basic mechanism (2000) and Apicurio's. */
    @Override
    public int getPriority() {
        return 3000;
    }
}
