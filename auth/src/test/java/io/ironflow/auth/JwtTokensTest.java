package io.ironflow.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import org.jose4j.jws.AlgorithmIdentifiers;
import org.jose4j.jws.JsonWebSignature;
import org.jose4j.jwt.JwtClaims;
import org.jose4j.jwt.NumericDate;
import org.junit.jupiter.api.Test;

/**
 * {@code jwt} (issue 58: no audience check, issuer optional, keys over plain http): start-up is refused with one
 * line without an issuer or an audience, with a key URL over http, or with an unbounded clock skew; a token
 * without the audience, for another audience or of another issuer is refused; expiry is forgiven the configured
 * skew and no more.
 */
class JwtTokensTest {

    private static final String ISSUER = "https://issuer.test";
    private static final String AUDIENCE = "ironflow-api";

    /** {@code ironflow.auth.jwt.*} as a test sets it. */
    record Jwt(Optional<String> publicKeyLocation, Optional<String> issuer, Optional<String> audience, Duration clockSkew)
            implements AuthConfig.Jwt {
        Jwt(String key, String issuer, String audience, Duration skew) {
            this(Optional.ofNullable(key), Optional.ofNullable(issuer), Optional.ofNullable(audience), skew);
        }

        @Override
        public String userClaim() {
            return "sub";
        }

        @Override
        public String rolesClaim() {
            return "roles";
        }

        @Override
        public String projectClaim() {
            return "project_id";
        }

        @Override
        public String systemScopeClaim() {
            return "system_scope";
        }
    }

    @Test
    void startIsRefusedWithoutIssuerAudienceOrASafeKey() {
        Duration skew = Duration.ofSeconds(60);
        assertNull(JwtSettings.refusal(new Jwt("file:/keys/jwt.pem", ISSUER, AUDIENCE, skew)));
        assertNull(JwtSettings.refusal(new Jwt("/keys/jwt.pem", ISSUER, AUDIENCE, skew)));
        assertNull(JwtSettings.refusal(new Jwt("https://issuer.test/jwks", ISSUER, AUDIENCE, skew)));
        for (var refused : List.of(
                List.of(new Jwt("http://issuer.test/jwks", ISSUER, AUDIENCE, skew), "over https only"),
                List.of(new Jwt("HTTP://issuer.test/jwks", ISSUER, AUDIENCE, skew), "over https only"),
                List.of(new Jwt(null, ISSUER, AUDIENCE, skew), "public-key-location"),
                List.of(new Jwt("/keys/jwt.pem", null, AUDIENCE, skew), "ironflow.auth.jwt.issuer"),
                List.of(new Jwt("/keys/jwt.pem", ISSUER, null, skew), "ironflow.auth.jwt.audience"),
                List.of(new Jwt("/keys/jwt.pem", ISSUER, " ", skew), "ironflow.auth.jwt.audience"),
                List.of(new Jwt("/keys/jwt.pem", ISSUER, AUDIENCE, Duration.ofHours(1)), "clock-skew"))) {
            String refusal = JwtSettings.refusal((AuthConfig.Jwt) refused.get(0));
            assertTrue(refusal != null && refusal.contains((String) refused.get(1)) && !refusal.contains("\n"),
                    refused + ": " + refusal);
            IllegalStateException thrown = assertThrows(IllegalStateException.class, () -> new JwtTokens((AuthConfig.Jwt) refused.get(0)));
            assertEquals(refusal, thrown.getMessage());
        }
    }

    @Test
    void onlyTokensOfTheIssuerForTheAudienceAreAccepted() throws Exception {
        KeyPair keys = rsa();
        JwtTokens tokens = new JwtTokens(new Jwt(pem(keys).toUri().toString(), ISSUER, AUDIENCE, Duration.ofSeconds(60)));
        assertEquals("alice", tokens.authenticate(null, token(keys, ISSUER, AUDIENCE, 300)).user());
        assertEquals("alice", tokens.authenticate("Bearer " + token(keys, ISSUER, List.of("other", AUDIENCE), 300), null).user());
        for (String refused : List.of(token(keys, ISSUER, null, 300), token(keys, ISSUER, "another-service", 300),
                token(keys, "https://elsewhere.test", AUDIENCE, 300))) {
            assertThrows(Unauthenticated.class, () -> tokens.authenticate(null, refused));
        }
    }

    @Test
    void expiryIsForgivenTheClockSkewAndNoMore() throws Exception {
        KeyPair keys = rsa();
        String key = pem(keys).toUri().toString();
        JwtTokens skew60 = new JwtTokens(new Jwt(key, ISSUER, AUDIENCE, Duration.ofSeconds(60)));
        assertEquals("alice", skew60.authenticate(null, token(keys, ISSUER, AUDIENCE, -20)).user());
        assertThrows(Unauthenticated.class, () -> skew60.authenticate(null, token(keys, ISSUER, AUDIENCE, -120)));
        JwtTokens skew0 = new JwtTokens(new Jwt(key, ISSUER, AUDIENCE, Duration.ZERO));
        assertThrows(Unauthenticated.class, () -> skew0.authenticate(null, token(keys, ISSUER, AUDIENCE, -20)));
    }

    /** A token of {@code issuer} for {@code audience} (null: none; a list: several), expiring in {@code seconds}. */
    private static String token(KeyPair keys, String issuer, Object audience, long seconds) throws Exception {
        JwtClaims claims = new JwtClaims();
        claims.setIssuer(issuer);
        if (audience instanceof String one) {
            claims.setAudience(one);
        } else if (audience instanceof List<?> many) {
            claims.setAudience(many.stream().map(String::valueOf).toList());
        }
        claims.setSubject("alice");
        claims.setIssuedAt(NumericDate.fromSeconds(System.currentTimeMillis() / 1000 - 600));
        claims.setExpirationTime(NumericDate.fromSeconds(System.currentTimeMillis() / 1000 + seconds));
        claims.setStringListClaim("roles", List.of("reader"));
        claims.setClaim("system_scope", "all");
        JsonWebSignature jws = new JsonWebSignature();
        jws.setPayload(claims.toJson());
        jws.setKey(keys.getPrivate());
        jws.setAlgorithmHeaderValue(AlgorithmIdentifiers.RSA_USING_SHA256);
        return jws.getCompactSerialization();
    }

    private static KeyPair rsa() throws Exception {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
        generator.initialize(2048);
        return generator.generateKeyPair();
    }

    private static Path pem(KeyPair keys) throws Exception {
        Path file = Files.createTempFile("ironflow-jwt", ".pem");
        file.toFile().deleteOnExit();
        Files.writeString(file, "-----BEGIN PUBLIC KEY-----\n" + Base64.getMimeEncoder(64, "\n".getBytes())
                .encodeToString(keys.getPublic().getEncoded()) + "\n-----END PUBLIC KEY-----\n");
        return file;
    }
}
