package io.ironflow.policy;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Set;
import org.junit.jupiter.api.Test;

/** Only Ironflow's own services are {@link Principal#isService}: the conductor lets them write during a transition. */
class PrincipalTest {

    @Test
    void onlyIronflowsOwnServicesAreServices() {
        assertTrue(Principal.service("oneview-allocator").isService());
        assertTrue(Principal.service("teardown-orchestrator").isService());
        assertFalse(new Principal("ironic-inspector", null, Set.of("service"), true).isService(), "another service's token");
        assertFalse(new Principal("oneview-allocator", "p1", Set.of("service"), false).isService(), "project scope");
        assertFalse(new Principal("oneview-allocator", null, Set.of("service", "admin"), true).isService(), "more than the service role");
        assertFalse(Principal.NOAUTH.isService(), "noauth callers are operators");
    }
}
