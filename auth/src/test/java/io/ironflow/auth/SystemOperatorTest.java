package io.ironflow.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.ironflow.policy.Principal;
import io.vertx.core.http.HttpMethod;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The rule of the ports that are not Ironic's API: system scope; reads for readers, changes for admins and services. */
class SystemOperatorTest {

    @Test
    void systemReadersReadAdminsAndServicesChangeProjectsNeither() {
        record Case(Principal who, boolean read, boolean write) {
        }
        for (Case c : List.of(
                new Case(new Principal("a", null, Set.of("admin"), true), true, true),
                new Case(new Principal("m", null, Set.of("member"), true), true, false),
                new Case(new Principal("r", null, Set.of("reader"), true), true, false),
                new Case(Principal.service("teardown"), true, true),
                new Case(new Principal("nobody", null, Set.of(), true), false, false),
                new Case(new Principal("pa", "p1", Set.of("admin"), false), false, false),
                new Case(new Principal("ps", "p1", Set.of("service"), false), false, false))) {
            assertEquals(c.read(), HttpAuthentication.systemOperator(c.who(), HttpMethod.GET), c.toString());
            assertEquals(c.write(), HttpAuthentication.systemOperator(c.who(), HttpMethod.POST), c.toString());
            assertEquals(c.write(), HttpAuthentication.systemOperator(c.who(), HttpMethod.DELETE), c.toString());
        }
    }

    @Test
    void onlyTheHealthChecksAreOpen() {
        assertEquals(List.of(true, true, true, false, false), List.of("/q/health", "/q/health/live", "/q/health/ready",
                "/q/healthz", "/q/metrics").stream().map(HttpAuthentication::health).toList());
    }
}
