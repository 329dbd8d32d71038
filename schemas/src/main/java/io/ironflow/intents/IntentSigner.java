package io.ironflow.intents;

import io.ironflow.events.NodeIntent;
import io.ironflow.policy.IntentRules;
import io.ironflow.policy.Principal;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.time.Duration;
import java.time.Instant;
import java.util.Set;
import org.jose4j.jwk.PublicJsonWebKey;
import org.jose4j.jws.AlgorithmIdentifiers;
import org.jose4j.jws.JsonWebSignature;
import org.jose4j.lang.JoseException;

/**
 * A sender's side of intent signatures: signs an intent's principal with the sender's private key, a JWK file
 * (Ed25519 or RSA, with a {@code kid}) that only the sender may read. The file is read again when it changes, so a
 * sender switches keys without a restart once the conductors trust the new one (docs/intents.md).
 */
public final class IntentSigner {

    /** How long past an intent's {@code notAfter} its signature stays valid: the conductor still answers it (503). */
    static final Duration PAST_NOT_AFTER = Duration.ofMinutes(1);
    /** The lifetime of a signature whose intent has no {@code notAfter} (Ironflow's services follow the node instead). */
    public static final Duration DEFAULT_LIFETIME = Duration.ofHours(1);

    private final ReloadingFile<PublicJsonWebKey> key;
    private final Duration lifetime;

    public IntentSigner(Path privateJwkFile) {
        this(privateJwkFile, DEFAULT_LIFETIME, Duration.ofSeconds(5));
    }

    public IntentSigner(Path privateJwkFile, Duration lifetime) {
        this(privateJwkFile, lifetime, Duration.ofSeconds(5));
    }

    IntentSigner(Path privateJwkFile, Duration lifetime, Duration checkEvery) {
        refuseReadableByOthers(privateJwkFile);
        this.lifetime = lifetime;
        this.key = new ReloadingFile<>(privateJwkFile, IntentSigner::parse, checkEvery);
    }

    /**
     * {@code intent} with its signature: valid a minute past its {@code notAfter}, so an intent that expired
     * unstarted is still answered 503, or for the signer's lifetime when it has none.
     */
    public NodeIntent sign(NodeIntent intent) {
        Instant expiresAt = intent.getNotAfter() != null ? intent.getNotAfter().plus(PAST_NOT_AFTER) : Instant.now().plus(lifetime);
        return sign(intent, expiresAt);
    }

    /**
     * {@code intent} with its signature, valid until {@code expiresAt}; the intent must name its principal, which
     * the signature then carries.
     */
    public NodeIntent sign(NodeIntent intent, Instant expiresAt) {
        Principal who = IntentRules.fromAvro(intent.getPrincipal());
        if (who == null) {
            throw new IllegalArgumentException("intent " + intent.getIntentId() + " names no principal to sign for");
        }
        PublicJsonWebKey jwk = key.get();
        JsonWebSignature jws = new JsonWebSignature();
        jws.setPayload(IntentClaims.of(intent, who, Instant.now(), expiresAt).toJson());
        jws.setKey(jwk.getPrivateKey());
        jws.setKeyIdHeaderValue(jwk.getKeyId());
        jws.setAlgorithmHeaderValue(algorithm(jwk));
        if (jwk.getKeyType().equals("OKP")) {
            jws.setProviderContext(SignatureProvider.forEdDsa());
        }
        try {
            intent.setSignature(jws.getCompactSerialization());
        } catch (JoseException e) {
            throw new IllegalStateException("cannot sign intent " + intent.getIntentId() + ": " + e.getMessage(), e);
        }
        return intent;
    }

    static String algorithm(PublicJsonWebKey jwk) {
        return switch (jwk.getKeyType()) {
            case "OKP" -> AlgorithmIdentifiers.EDDSA;
            case "RSA" -> AlgorithmIdentifiers.RSA_USING_SHA256;
            default -> throw new IllegalArgumentException("intent keys are Ed25519 (OKP) or RSA, not " + jwk.getKeyType());
        };
    }

    private static PublicJsonWebKey parse(String json) {
        try {
            PublicJsonWebKey jwk = PublicJsonWebKey.Factory.newPublicJwk(json);
            if (jwk.getPrivateKey() == null || jwk.getKeyId() == null) {
                throw new IllegalArgumentException("an intent-signing key must be a private JWK with a kid");
            }
            algorithm(jwk);
            return jwk;
        } catch (JoseException e) {
            throw new IllegalArgumentException("not a JWK: " + e.getMessage(), e);
        }
    }

    /**
     * As ssh does with private keys: a key everybody may read is not the sender's alone. Its group may (Kubernetes
     * mounts a Secret for the pod's fsGroup: mode 0440).
     */
    private static void refuseReadableByOthers(Path file) {
        try {
            if (Files.getFileStore(file).supportsFileAttributeView("posix")) {
                Set<PosixFilePermission> permissions = Files.getPosixFilePermissions(file);
                if (permissions.contains(PosixFilePermission.OTHERS_READ)) {
                    throw new IllegalArgumentException("the intent-signing key " + file + " may be read by others: chmod 600 it");
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the intent-signing key " + file, e);
        }
    }
}
