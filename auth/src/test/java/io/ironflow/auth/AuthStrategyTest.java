package io.ironflow.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** noauth only on loopback; the other strategies anywhere. */
class AuthStrategyTest {

    @Test
    void noauthIsRefusedBeyondLoopback() {
        for (String host : List.of("127.0.0.1", "127.0.0.2", "localhost", "::1")) {
            assertNull(AuthStrategy.noauth.refusal(List.of(host)), host);
        }
        for (String host : List.of("0.0.0.0", "10.1.2.3", "::", "ironflow.example.com")) {
            String refusal = AuthStrategy.noauth.refusal(List.of(host));
            assertTrue(refusal != null && refusal.contains(host) && !refusal.contains("\n"), host + ": " + refusal);
        }
        assertEquals(null, AuthStrategy.http_basic.refusal(List.of("0.0.0.0")));
        assertEquals(null, AuthStrategy.jwt.refusal(List.of("0.0.0.0")));
    }
}
