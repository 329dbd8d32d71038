package io.ironflow.api;

import io.quarkus.test.junit.QuarkusTestProfile;
import io.smallrye.jwt.build.Jwt;
import io.ironflow.policy.Principal;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;

/**
 * The API with {@code ironflow.auth.strategy=jwt}, verifying tokens against an RSA key pair the test makes, and
 * {@link #token} to sign one for any principal (or with another key, or expired).
 */
public class JwtAuthProfile implements QuarkusTestProfile {

    static final String ISSUER = "https://issuer.test/ironflow";
    static final String AUDIENCE = "ironflow-api-test";
    static final KeyPair KEYS = rsa();
    static final KeyPair STRANGER = rsa();
    private static final Path PUBLIC_KEY = pem(KEYS);

    @Override
    public Map<String, String> getConfigOverrides() {
        // A refusal is decided before anything is sent; what is allowed waits for the fake conductor, on a busy machine.
        return Map.of("ironflow.api.intent-timeout", "30s",
                "ironflow.auth.strategy", "jwt",
                "ironflow.auth.jwt.public-key-location", PUBLIC_KEY.toUri().toString(),
                "ironflow.auth.jwt.issuer", ISSUER,
                "ironflow.auth.jwt.audience", AUDIENCE);
    }

    /** A token for {@code who}: roles, project_id and system_scope claims, signed by the trusted key. */
    static String token(Principal who) {
        return token(who, KEYS, Duration.ofMinutes(5));
    }

    static String token(Principal who, KeyPair keys, Duration validFor) {
        var claims = Jwt.issuer(ISSUER).audience(AUDIENCE).subject(who.user()).claim("roles", who.roles())
                .issuedAt(System.currentTimeMillis() / 1000 - 600)
                .expiresAt(System.currentTimeMillis() / 1000 + validFor.toSeconds());
        if (who.systemScope()) {
            claims.claim("system_scope", "all");
        } else {
            claims.claim("project_id", who.project());
        }
        return claims.sign(keys.getPrivate());
    }

    private static KeyPair rsa() {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
            generator.initialize(2048);
            return generator.generateKeyPair();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Path pem(KeyPair keys) {
        try {
            Path file = Files.createTempFile("ironflow-jwt", ".pem");
            file.toFile().deleteOnExit();
            Files.writeString(file, "-----BEGIN PUBLIC KEY-----\n"
                    + Base64.getMimeEncoder(64, "\n".getBytes()).encodeToString(keys.getPublic().getEncoded())
                    + "\n-----END PUBLIC KEY-----\n");
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
