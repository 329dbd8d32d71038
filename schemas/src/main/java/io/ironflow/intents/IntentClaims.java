package io.ironflow.intents;

import io.ironflow.events.NodeIntent;
import io.ironflow.policy.IntentRules;
import io.ironflow.policy.Principal;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import org.jose4j.jwt.JwtClaims;
import org.jose4j.jwt.MalformedClaimException;
import org.jose4j.jwt.NumericDate;

/**
 * The claims of an intent signature: who the intent acts for ({@code sub}, {@code project}, {@code roles},
 * {@code system_scope}) bound to what makes it this intent and no other ({@code jti} = intentId, {@code node} =
 * nodeUuid, {@code cmd} = {@link CommandDigest}), issued at {@code iat}, valid until {@code exp}.
 */
final class IntentClaims {

    static final String NODE = "node";
    static final String COMMAND = "cmd";
    static final String PROJECT = "project";
    static final String ROLES = "roles";
    static final String SYSTEM_SCOPE = "system_scope";

    private IntentClaims() {
    }

    static JwtClaims of(NodeIntent intent, Principal who, Instant issuedAt, Instant expiresAt) {
        JwtClaims claims = new JwtClaims();
        claims.setJwtId(intent.getIntentId());
        claims.setSubject(who.user());
        claims.setStringClaim(NODE, intent.getNodeUuid());
        claims.setStringClaim(COMMAND, CommandDigest.of(intent.getCommand()));
        if (who.project() != null) {
            claims.setStringClaim(PROJECT, who.project());
        }
        claims.setStringListClaim(ROLES, List.copyOf(who.roles()));
        claims.setClaim(SYSTEM_SCOPE, who.systemScope());
        claims.setIssuedAt(NumericDate.fromMilliseconds(issuedAt.toEpochMilli()));
        claims.setExpirationTime(NumericDate.fromMilliseconds(expiresAt.toEpochMilli()));
        return claims;
    }

    /** Why the verified {@code claims} are not {@code intent}'s, or null when they are. */
    static String mismatch(JwtClaims claims, NodeIntent intent) throws MalformedClaimException {
        if (!intent.getIntentId().equals(claims.getJwtId())) {
            return "the signature is for another intent";
        }
        if (!intent.getNodeUuid().equals(claims.getStringClaimValue(NODE))) {
            return "the signature is for another node";
        }
        if (!CommandDigest.of(intent.getCommand()).equals(claims.getStringClaimValue(COMMAND))) {
            return "the signature is for another command";
        }
        Principal signed = principal(claims);
        if (intent.getPrincipal() != null && !signed.equals(IntentRules.fromAvro(intent.getPrincipal()))) {
            return "the intent names another principal than its signature";
        }
        return null;
    }

    static Principal principal(JwtClaims claims) throws MalformedClaimException {
        List<String> roles = claims.getStringListClaimValue(ROLES);
        Object system = claims.getClaimValue(SYSTEM_SCOPE);
        if (claims.getSubject() == null || roles == null || !(system instanceof Boolean)) {
            throw new MalformedClaimException("the signature names no complete principal (sub, roles, system_scope)");
        }
        return new Principal(claims.getSubject(), claims.getStringClaimValue(PROJECT), Set.copyOf(roles), (Boolean) system);
    }
}
