package io.ironflow.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The body, JSON depth and header limits follow their configuration: set here far below their defaults (Ironic's
 * 114,688 bytes, 32 levels, 16 KiB), each is refused just over the limit and let through at it.
 */
@QuarkusTest
@TestProfile(InputLimitsTest.Small.class)
class InputLimitsTest {

    /** Small limits, and no rate limit (this test is not about it). */
    public static class Small implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("quarkus.http.limits.max-body-size", "1K", "ironflow.api.max-json-depth", "6",
                    "quarkus.http.limits.max-header-size", "4K", "ironflow.api.rate-limit.enabled", "false");
        }
    }

    @TestHTTPResource("/")
    URL root;

    @Test
    void aBodyOverTheConfiguredLimitIs413InIronicsShape() throws Exception {
        String over = "{\"driver\": \"fake-hardware\", \"description\": \"" + "x".repeat(1024) + "\"}";
        RawHttp.Reply reply = post(over, Map.of());
        assertEquals(413, reply.status(), reply.body());
        assertTrue(reply.body().contains("Request is too large. Larger than max_request_body_size (1024)."), reply.body());
    }

    @Test
    void jsonNestedDeeperThanConfiguredIs400AndAtTheLimitIsRead() throws Exception {
        // the document itself is level 1: extra nests five more objects (6), or six (7)
        RawHttp.Reply deep = post("{\"driver\": \"fake-hardware\", \"extra\": " + nested(6) + "}", Map.of());
        assertEquals(400, deep.status(), deep.body());
        assertTrue(deep.body().contains("not acceptable JSON") && deep.body().contains("maximum allowed (6"), deep.body());
        RawHttp.Reply atLimit = post("{\"driver\": \"fake-hardware\", \"name\": 5, \"extra\": " + nested(5) + "}", Map.of());
        assertEquals(400, atLimit.status(), atLimit.body());
        assertTrue(atLimit.body().contains("Invalid input for field/attribute name"), "read, then refused for its name: "
                + atLimit.body());
    }

    @Test
    void headersOverTheConfiguredSizeAre431() throws Exception {
        assertEquals(431, post("{}", Map.of("X-Padding", "p".repeat(5000))).status());
        RawHttp.Reply fits = post("{\"driver\": \"fake-hardware\", \"name\": 5}", Map.of("X-Padding", "p".repeat(3000)));
        assertEquals(400, fits.status(), fits.body());
    }

    private static String nested(int levels) {
        return "{\"a\": ".repeat(levels - 1) + "{}" + "}".repeat(levels - 1);
    }

    private RawHttp.Reply post(String body, Map<String, String> extra) throws Exception {
        Map<String, String> headers = new java.util.LinkedHashMap<>(extra);
        headers.put("Content-Type", "application/json");
        headers.put("X-OpenStack-Ironic-API-Version", "latest");
        return new RawHttp(root).send("POST", "/v1/nodes", headers, body.getBytes(StandardCharsets.UTF_8), false);
    }
}
