package io.ironflow.intents;

import io.ironflow.events.NodeIntent;
import io.ironflow.policy.Principal;
import io.ironflow.schemas.LogText;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jose4j.jwa.AlgorithmConstraints;
import org.jose4j.jwk.JsonWebKey;
import org.jose4j.jws.AlgorithmIdentifiers;
import org.jose4j.jwt.JwtClaims;
import org.jose4j.jwt.MalformedClaimException;
import org.jose4j.jwt.consumer.ErrorCodes;
import org.jose4j.jwt.consumer.InvalidJwtException;
import org.jose4j.jwt.consumer.JwtConsumer;
import org.jose4j.jwt.consumer.JwtConsumerBuilder;
import org.jose4j.jwx.JsonWebStructure;
import org.jose4j.lang.JoseException;
import org.jose4j.lang.JsonHelp;
import org.jose4j.json.JsonUtil;

/**
 * The conductor's side of intent signatures: the principal an intent may act for, as a trusted key signed it for
 * this intent, this node and this command, or an {@link UntrustedIntent} saying why not. The trusted keys are a
 * JWK Set file of public keys, each with the {@link KeyBinding} members that say whom it may sign for; the file is
 * read again when it changes, so a new key is trusted, and an old one dropped, without a restart. A signature is
 * EdDSA or RS256 only, must carry {@code exp} (with {@code clockSkew} of tolerance) and may not be valid for more
 * than {@code maxLifetime}: a replay inside that window names an intentId the conductor has already answered.
 */
public final class IntentVerifier {

    private final ReloadingFile<Map<String, TrustedKey>> keys;

    private record TrustedKey(JwtConsumer consumer, KeyBinding binding) {
    }

    public IntentVerifier(Path trustedKeysFile, Duration clockSkew, Duration maxLifetime) {
        this(trustedKeysFile, clockSkew, maxLifetime, Duration.ofSeconds(5));
    }

    IntentVerifier(Path trustedKeysFile, Duration clockSkew, Duration maxLifetime, Duration checkEvery) {
        this.keys = new ReloadingFile<>(trustedKeysFile, json -> parse(json, clockSkew, maxLifetime), checkEvery);
    }

    /** The principal {@code intent} acts for, or an {@link UntrustedIntent} with the reason it may act for nobody. */
    public Principal verify(NodeIntent intent) {
        String signature = intent.getSignature();
        if (signature == null || signature.isEmpty()) {
            throw new UntrustedIntent("the intent is not signed");
        }
        String kid;
        try {
            kid = JsonWebStructure.fromCompactSerialization(signature).getKeyIdHeaderValue();
        } catch (JoseException e) {
            throw new UntrustedIntent("the signature is not a compact JWS");
        }
        TrustedKey key = kid == null ? null : keys.get().get(kid);
        if (key == null && kid != null) {
            key = keys.checkedWithin(Duration.ofSeconds(1)).get(kid); // a key added a moment ago is trusted at once
        }
        if (key == null) {
            throw new UntrustedIntent("the signature's key " + (kid == null ? "(no kid)" : LogText.of(kid)) + " is not trusted");
        }
        try {
            JwtClaims claims = key.consumer().processToClaims(signature);
            String mismatch = IntentClaims.mismatch(claims, intent);
            if (mismatch != null) {
                throw new UntrustedIntent(mismatch + " (key " + kid + ")");
            }
            Principal who = IntentClaims.principal(claims);
            String beyond = key.binding().refusal(who);
            if (beyond != null) {
                throw new UntrustedIntent(beyond + " (key " + kid + ")");
            }
            return who;
        } catch (InvalidJwtException e) {
            throw new UntrustedIntent(reason(e) + " (key " + kid + ")");
        } catch (MalformedClaimException e) {
            throw new UntrustedIntent("the signature's claims are malformed: " + e.getMessage() + " (key " + kid + ")");
        }
    }

    private static String reason(InvalidJwtException e) {
        if (e.hasExpired()) {
            return "the signature has expired";
        }
        if (e.hasErrorCode(ErrorCodes.SIGNATURE_INVALID)) {
            return "the signature does not verify";
        }
        if (e.hasErrorCode(ErrorCodes.ISSUED_AT_INVALID_FUTURE) || e.hasErrorCode(ErrorCodes.EXPIRATION_TOO_FAR_IN_FUTURE)) {
            return "the signature's validity is too long or starts in the future";
        }
        return e.getErrorDetails().isEmpty() ? "the signature is not valid" : "the signature is not valid: "
                + LogText.of(e.getErrorDetails().get(0).getErrorMessage());
    }

    private static Map<String, TrustedKey> parse(String json, Duration clockSkew, Duration maxLifetime) {
        try {
            Map<String, Object> set = JsonUtil.parseJson(json);
            Object listed = set.get("keys");
            if (!(listed instanceof List<?> entries)) {
                throw new IllegalArgumentException("a trusted-keys file is a JWK Set: {\"keys\": [...]}");
            }
            Map<String, TrustedKey> byKid = new HashMap<>();
            for (Object entry : entries) {
                if (!(entry instanceof Map<?, ?>)) {
                    throw new IllegalArgumentException("every entry of \"keys\" must be a JWK object");
                }
                @SuppressWarnings("unchecked")
                Map<String, Object> members = (Map<String, Object>) entry;
                JsonWebKey jwk = JsonWebKey.Factory.newJwk(members);
                String kid = JsonHelp.getString(members, "kid");
                if (kid == null || byKid.containsKey(kid)) {
                    throw new IllegalArgumentException("every trusted key needs a kid of its own (" + kid + ")");
                }
                if (members.containsKey("d")) {
                    throw new IllegalArgumentException("trusted key " + kid + " holds a private key: give the conductor public keys only");
                }
                JwtConsumerBuilder builder = new JwtConsumerBuilder();
                if (jwk.getKeyType().equals("OKP")) {
                    builder.setJwsProviderContext(SignatureProvider.forEdDsa());
                }
                JwtConsumer consumer = builder
                        .setVerificationKey(jwk.getKey())
                        .setJwsAlgorithmConstraints(AlgorithmConstraints.ConstraintType.PERMIT,
                                AlgorithmIdentifiers.EDDSA, AlgorithmIdentifiers.RSA_USING_SHA256)
                        .setRequireExpirationTime()
                        .setRequireIssuedAt()
                        .setRequireJwtId()
                        .setRequireSubject()
                        .setAllowedClockSkewInSeconds((int) clockSkew.toSeconds())
                        .setMaxFutureValidityInMinutes((int) Math.max(1, maxLifetime.toMinutes()))
                        .setSkipDefaultAudienceValidation()
                        .build();
                byKid.put(kid, new TrustedKey(consumer, KeyBinding.of(members)));
            }
            return Map.copyOf(byKid);
        } catch (JoseException e) {
            throw new IllegalArgumentException("the trusted-keys file is not a JWK Set: " + e.getMessage(), e);
        }
    }
}
