package io.ironflow.api;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.response.Response;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The per-principal token bucket, configured to a burst of 5 and 1 request a second: an anonymous client (keyed
 * by its address) gets its burst, then 429 in Ironic's shape with Retry-After, while health stays answered; a
 * token later it is served again.
 */
@QuarkusTest
@TestProfile(RateLimitTest.Tight.class)
class RateLimitTest {

    /** Five at once, then one a second. */
    public static class Tight implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("ironflow.api.rate-limit.burst", "5", "ironflow.api.rate-limit.per-second", "1");
        }
    }

    @Test
    void aClientOverItsRateIs429WithRetryAfterThenServedAgain() throws Exception {
        long started = System.nanoTime();
        int served = 0;
        Response refused = null;
        for (int i = 0; i < 50 && refused == null; i++) {
            Response r = Api.latest().get("/v1");
            if (r.statusCode() == 429) {
                refused = r;
            } else {
                assertEquals(200, r.statusCode(), r.asString());
                served++;
            }
        }
        long elapsedSeconds = Duration.ofNanos(System.nanoTime() - started).toSeconds();
        assertTrue(refused != null, "50 requests at once were all served");
        assertTrue(served >= 5 && served <= 5 + elapsedSeconds + 1, "served the burst and the refill only: " + served);
        assertEquals("1", refused.header("Retry-After"));
        String fault = new ObjectMapper().readTree(refused.path("error_message").toString()).get("faultstring").asText();
        assertTrue(fault.startsWith("Too many requests from 127.0.0.1: more than 1 a second (bursts of 5)."), fault);
        assertEquals(200, Api.latest().get("/q/health/live").statusCode(), "health is never limited");
        await().atMost(Duration.ofSeconds(5)).until(() -> Api.latest().get("/v1").statusCode() == 200);
    }
}
