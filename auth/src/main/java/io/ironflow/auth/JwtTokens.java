package io.ironflow.auth;

import io.ironflow.policy.Principal;
import io.smallrye.jwt.auth.principal.DefaultJWTParser;
import io.smallrye.jwt.auth.principal.JWTAuthContextInfo;
import io.smallrye.jwt.auth.principal.ParseException;
import jakarta.json.JsonArray;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.util.Collection;
import java.util.HashSet;
import java.util.Set;
import org.eclipse.microprofile.jwt.JsonWebToken;

/**
 * {@code jwt}: bearer tokens of an OIDC issuer, verified by SmallRye JWT (signature against the issuer's public
 * key or JWKS, read from a file or over https; expiry within the configured clock skew; the configured issuer and
 * audience, both required: {@link JwtSettings}). The token travels in {@code Authorization: Bearer} or in
 * {@code X-Auth-Token}, which is what OpenStack clients' token auth sends. Which claims hold the roles, the project
 * and the system scope is configurable, so tokens of Keycloak, Dex or Keystone-like issuers all map.
 */
final class JwtTokens implements Authenticator {

    private final DefaultJWTParser parser;
    private final AuthConfig.Jwt claims;

    JwtTokens(AuthConfig.Jwt config) {
        String refused = JwtSettings.refusal(config);
        if (refused != null) {
            throw new IllegalStateException(refused);
        }
        JWTAuthContextInfo info = new JWTAuthContextInfo();
        info.setPublicKeyLocation(config.publicKeyLocation().orElseThrow().trim());
        info.setIssuedBy(config.issuer().orElseThrow());
        // a token without aud, or for another audience, is refused by the parser
        info.setExpectedAudience(Set.of(config.audience().orElseThrow()));
        info.setClockSkew((int) config.clockSkew().toSeconds());
        this.parser = new DefaultJWTParser(info);
        this.claims = config;
    }

    @Override
    public Principal authenticate(String authorization, String authToken) throws Unauthenticated {
        String token = authToken;
        if (authorization != null && authorization.regionMatches(true, 0, "Bearer ", 0, 7)) {
            token = authorization.substring(7).trim();
        }
        if (token == null || token.isBlank()) {
            throw new Unauthenticated("A bearer token is required (Authorization: Bearer or X-Auth-Token)");
        }
        JsonWebToken jwt;
        try {
            jwt = parser.parse(token);
        } catch (ParseException e) {
            throw new Unauthenticated("The token is not valid");
        }
        String user = text(jwt.getClaim(claims.userClaim()));
        String project = text(jwt.getClaim(claims.projectClaim()));
        Object scope = jwt.getClaim(claims.systemScopeClaim());
        boolean system = "all".equals(text(scope)) || "true".equals(text(scope));
        return new Principal(user != null ? user : jwt.getSubject(), system ? null : project,
                strings(jwt.getClaim(claims.rolesClaim())), system);
    }

    private static String text(Object claim) {
        if (claim == null) {
            return null;
        }
        if (claim instanceof JsonString s) {
            return s.getString();
        }
        if (claim instanceof JsonValue v && (v == JsonValue.TRUE || v == JsonValue.FALSE)) {
            return String.valueOf(v == JsonValue.TRUE);
        }
        return String.valueOf(claim);
    }

    private static Set<String> strings(Object claim) {
        Set<String> values = new HashSet<>();
        if (claim instanceof JsonArray array) {
            array.forEach(v -> values.add(text(v)));
        } else if (claim instanceof Collection<?> list) {
            list.forEach(v -> values.add(text(v)));
        } else if (claim != null) {
            for (String role : text(claim).split("\\s*,\\s*")) {
                if (!role.isEmpty()) {
                    values.add(role);
                }
            }
        }
        return values;
    }

    @Override
    public String challenge() {
        return "Bearer realm=\"Baremetal API\"";
    }
}
