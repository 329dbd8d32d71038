package io.ironflow.deploy.stack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.KeyFactory;
import java.security.PublicKey;
import java.security.spec.X509EncodedKeySpec;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Properties;
import org.jose4j.jwt.JwtClaims;
import org.jose4j.jwt.NumericDate;
import org.jose4j.jwt.consumer.InvalidJwtException;
import org.jose4j.jwt.consumer.JwtConsumerBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The launcher's jwt tokens: the operators' live {@code --token-lifetime} (one hour by default) and are refused
 * once past it; {@code ./ironflow token} mints a fresh one from the data directory's key (kept 0600) and prints
 * only the token; the service account's token is long-lived and kept out of credentials.properties. Verified as
 * the API verifies them (RS256 against jwt-public.pem, issuer, audience, expiry without clock skew; the services are
 * configured with the same issuer and audience, which they require since issue 58), with the evaluation time
 * moved past the expiry instead of waiting for it. The API's 401 with Ironic's body for an expired token is
 * api-service's RbacMatrixTest.
 */
class StackTokenTest {

    @TempDir
    Path dataDir;

    @Test
    void theOperatorsTokensLiveTheirLifetimeAndTheServiceTokenIsAShortLivedRenewedFile() throws Exception {
        StackAuth auth = StackAuth.prepare(StackAuth.AuthStrategy.jwt, dataDir, null, null, Duration.ofMinutes(20));
        assertEquals(StackAuth.ISSUER, auth.serviceConfig().get("ironflow.auth.jwt.issuer"));
        assertEquals(StackAuth.AUDIENCE, auth.serviceConfig().get("ironflow.auth.jwt.audience"));
        Path key = dataDir.resolve("auth").resolve(StackAuth.PRIVATE_KEY);
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(key)));
        Properties credentials = new Properties();
        try (Reader in = Files.newBufferedReader(dataDir.resolve("auth").resolve("credentials.properties"))) {
            credentials.load(in);
        }
        for (String user : List.of("admin", "reader", "member")) {
            JwtClaims claims = verify(credentials.getProperty(user + ".token"), null);
            assertEquals(user, claims.getSubject());
            assertEquals(Duration.ofMinutes(20).toSeconds(), lifetime(claims), user);
        }
        assertFalse(credentials.containsKey(StackAuth.SERVICE_USER + ".token"), "the service token is for the orchestrator only");
        // The service account's token is a file only its owner reads, short-lived and renewed (issue 58).
        Path tokenFile = Path.of(auth.serviceEnvironment().get("IRONFLOW_TEARDOWN_IRONFLOW_API_TOKEN_FILE"));
        assertEquals(List.of("IRONFLOW_TEARDOWN_IRONFLOW_API_TOKEN_FILE"), List.copyOf(auth.serviceEnvironment().keySet()),
                "no token in the orchestrator's environment");
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(tokenFile)));
        JwtClaims service = verify(Files.readString(tokenFile), null);
        assertEquals(StackAuth.SERVICE_USER, service.getSubject());
        assertEquals(List.of("service"), service.getStringListClaimValue("roles"));
        assertEquals(Duration.ofHours(1).toSeconds(), lifetime(service), "an hour, not a year");
        assertTrue(StackAuth.SERVICE_TOKEN_RENEWAL.compareTo(StackAuth.SERVICE_TOKEN_LIFETIME.dividedBy(2)) < 0,
                "renewed well before it expires");
        Thread.sleep(1100); // a token's times are in seconds
        auth.renewServiceToken();
        JwtClaims renewed = verify(Files.readString(tokenFile), null);
        assertTrue(renewed.getExpirationTime().isAfter(service.getExpirationTime()), "the renewed token lives longer");
    }

    @Test
    void theTokenCommandPrintsAFreshTokenOnlyAndItExpires() throws Exception {
        StackAuth.prepare(StackAuth.AuthStrategy.jwt, dataDir, null, null, StackAuth.DEFAULT_TOKEN_LIFETIME);
        IronflowRun minted = IronflowRun.of("token", "--data-dir", dataDir.toString(), "--user", "member", "--lifetime", "90s");
        assertEquals(0, minted.code(), minted.err());
        assertEquals("", minted.err());
        assertEquals(1, minted.out().lines().count(), "the token and nothing else: " + minted.out());
        String token = minted.out().trim();
        JwtClaims claims = verify(token, null);
        assertEquals("member", claims.getSubject());
        assertEquals(StackAuth.DEMO_PROJECT, claims.getStringClaimValue("project_id"));
        assertEquals(90, lifetime(claims));
        NumericDate afterExpiry = NumericDate.fromSeconds(claims.getExpirationTime().getValue() + 1);
        InvalidJwtException expired = assertThrows(InvalidJwtException.class, () -> verify(token, afterExpiry));
        assertTrue(expired.hasExpired(), expired.getMessage());

        IronflowRun byDefault = IronflowRun.of("token", "--data-dir", dataDir.toString(), "--user", "admin");
        assertEquals(StackAuth.DEFAULT_TOKEN_LIFETIME.toSeconds(), lifetime(verify(byDefault.out().trim(), null)));
        assertEquals(Duration.ofHours(1), StackAuth.DEFAULT_TOKEN_LIFETIME);
        assertTrue(StackSecrets.adminAuthorization(dataDir).orElseThrow().startsWith("Bearer "));
        assertEquals("admin", verify(StackSecrets.adminAuthorization(dataDir).orElseThrow().substring(7), null).getSubject());
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(
                dataDir.resolve("auth").resolve(StackAuth.PRIVATE_KEY))), "minting leaves the key owner-only");
    }

    @Test
    void aTokenForNobodyWithoutAKeyOrWithABadLifetimeIsOneLineAndExit2() throws Exception {
        IronflowRun noKey = IronflowRun.of("token", "--data-dir", dataDir.toString(), "--user", "admin");
        assertEquals(2, noKey.code());
        assertTrue(noKey.err().contains("--auth jwt"), noKey.err());
        StackAuth.prepare(StackAuth.AuthStrategy.jwt, dataDir, null, null, StackAuth.DEFAULT_TOKEN_LIFETIME);
        for (IronflowRun refused : List.of(noKey, IronflowRun.of("token", "--data-dir", dataDir.toString(), "--user", "mallory"),
                IronflowRun.of("token", "--data-dir", dataDir.toString(), "--user", "admin", "--lifetime", "forever"),
                IronflowRun.of("token", "--data-dir", dataDir.toString(), "--user", "admin", "--lifetime", "0h"),
                IronflowRun.of("up", "--token-lifetime", "-1h"), IronflowRun.of("token", "--data-dir", dataDir.toString()))) {
            assertEquals(2, refused.code(), refused.err());
            assertEquals(1, refused.err().lines().count(), refused.err());
            assertEquals("", refused.out(), "nothing is minted");
        }
    }

    private JwtClaims verify(String token, NumericDate at) throws Exception {
        String pem = Files.readString(dataDir.resolve("auth").resolve("jwt-public.pem"))
                .replaceAll("-----[A-Z ]+-----", "").replaceAll("\\s", "");
        PublicKey key = KeyFactory.getInstance("RSA").generatePublic(new X509EncodedKeySpec(Base64.getDecoder().decode(pem)));
        JwtConsumerBuilder consumer = new JwtConsumerBuilder().setVerificationKey(key).setExpectedIssuer(StackAuth.ISSUER)
                .setExpectedAudience(StackAuth.AUDIENCE).setRequireExpirationTime().setRequireIssuedAt().setAllowedClockSkewInSeconds(0);
        if (at != null) {
            consumer.setEvaluationTime(at);
        }
        return consumer.build().processToClaims(token);
    }

    private static long lifetime(JwtClaims claims) throws Exception {
        return claims.getExpirationTime().getValue() - claims.getIssuedAt().getValue();
    }
}
