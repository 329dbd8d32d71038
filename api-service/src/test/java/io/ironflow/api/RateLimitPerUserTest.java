package io.ironflow.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.response.Response;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The token bucket is per authenticated principal, as documented (issue 58: it read an identity that was never
 * set, so every caller of one address shared a bucket): with http_basic and a burst of 5, one user who spends its
 * burst is 429 under its own name while another user from the same address is still served.
 */
@QuarkusTest
@TestProfile(RateLimitPerUserTest.TightBasic.class)
class RateLimitPerUserTest {

    /** http_basic users, five requests at once each, then one a second. */
    public static class TightBasic extends HttpBasicAuthProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            Map<String, String> config = new HashMap<>(super.getConfigOverrides());
            config.put("ironflow.api.rate-limit.burst", "5");
            config.put("ironflow.api.rate-limit.per-second", "1");
            return config;
        }
    }

    @Test
    void anAuthenticatedUserHasABucketOfItsOwn() throws Exception {
        Response refused = null;
        for (int i = 0; i < 50 && refused == null; i++) {
            // a path no resource serves: authenticated and limited, then 404, with no database involved
            Response r = Api.latest().auth().preemptive().basic("admin", "admin-secret").get("/v1/rate-limit-probe");
            if (r.statusCode() == 429) {
                refused = r;
            } else {
                assertEquals(404, r.statusCode(), r.asString());
            }
        }
        assertTrue(refused != null, "50 requests of one user were all served");
        ObjectMapper json = new ObjectMapper();
        String fault = json.readTree(refused.path("error_message").toString()).get("faultstring").asText();
        assertTrue(fault.startsWith("Too many requests from admin:"), fault);
        Response other = Api.latest().auth().preemptive().basic("reader", "reader-secret").get("/v1/rate-limit-probe");
        assertEquals(404, other.statusCode(), "another user from the same address is served: " + other.asString());
    }
}
