package io.ironflow.api;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.ironflow.policy.Principal;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The metrics and the OpenAPI document (issue 58: open to any authenticated project user) need a system-scoped
 * reader, as every other service's metrics do; health stays open to probes.
 */
@QuarkusTest
@TestProfile(JwtAuthProfile.class)
class OperatorEndpointsTest {

    @Test
    void metricsAndOpenApiAreForSystemReadersOnly() {
        String member = JwtAuthProfile.token(new Principal("m", "p1", Set.of("member", "reader"), false));
        String projectAdmin = JwtAuthProfile.token(new Principal("pa", "p1", Set.of("admin"), false));
        String systemReader = JwtAuthProfile.token(new Principal("r", null, Set.of("reader"), true));
        for (String path : new String[] {"/q/metrics", "/q/openapi"}) {
            for (String token : new String[] {member, projectAdmin}) {
                int status = Api.latest().header("X-Auth-Token", token).get(path).statusCode();
                assertEquals(403, status, path + " for a project user");
            }
            assertEquals(401, Api.latest().get(path).statusCode(), path + " without a token");
            assertEquals(200, Api.latest().header("X-Auth-Token", systemReader).get(path).statusCode(), path + " for a system reader");
        }
        assertEquals(200, Api.latest().get("/q/health/live").statusCode());
    }
}
