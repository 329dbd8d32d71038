package io.ironflow.teardown.api;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ironflow.policy.Principal;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Shipyard's admin_required for the site design (issue 58): a system reader, member or service, whom the port lets
 * read actions, does not read configdocs or rendered documents; an admin (and noauth, Ironic's everything) does.
 */
class SiteDesignAccessTest {

    @Test
    void onlyAdminsReadTheSiteDesign() {
        assertTrue(SiteDesignAccess.mayRead(new Principal("admin", null, Set.of("admin"), true)));
        assertTrue(SiteDesignAccess.mayRead(Principal.NOAUTH));
        assertFalse(SiteDesignAccess.mayRead(new Principal("reader", null, Set.of("reader"), true)));
        assertFalse(SiteDesignAccess.mayRead(new Principal("member", null, Set.of("member"), true)));
        assertFalse(SiteDesignAccess.mayRead(Principal.service("teardown-orchestrator")));
        assertFalse(SiteDesignAccess.mayRead(null));
    }
}
