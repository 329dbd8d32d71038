package io.ironflow.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ironflow.events.CreateNode;
import io.ironflow.events.SetMaintenance;
import io.ironflow.events.UpdateNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Ironic's defaults as the issue states them, the check-string language, and the policy file. */
class PolicyTest {

    private final Policy policy = Policy.defaults();

    private Set<Persona> allowed(String rule) {
        Set<Persona> who = EnumSet.noneOf(Persona.class);
        for (Persona p : Persona.values()) {
            if (policy.allows(rule, p.principal(), Persona.NODE)) {
                who.add(p);
            }
        }
        return who;
    }

    @Test
    void createAndDeleteAreForSystemAdmins() {
        assertEquals(EnumSet.of(Persona.SYSTEM_ADMIN, Persona.SYSTEM_SERVICE), allowed("baremetal:node:create"));
        assertEquals(EnumSet.of(Persona.SYSTEM_ADMIN), allowed("baremetal:node:delete"));
    }

    @Test
    void changingTheOwnerOfAnActiveNodeIsForSystemAdmins() { // Ironic's update_owner_provisioned
        assertEquals(EnumSet.of(Persona.SYSTEM_ADMIN), allowed("baremetal:node:update_owner_provisioned"));
    }

    @Test
    void anyReaderOfTheNodeMayGetItOthersMayNot() {
        assertEquals(EnumSet.complementOf(EnumSet.of(Persona.OTHER_ADMIN)), allowed("baremetal:node:get"));
        assertTrue(allowed("baremetal:node:list").contains(Persona.OTHER_ADMIN), "list: filtered, not refused");
        assertEquals(EnumSet.of(Persona.SYSTEM_ADMIN, Persona.SYSTEM_MEMBER, Persona.SYSTEM_READER, Persona.SYSTEM_SERVICE),
                allowed("baremetal:node:list_all"));
    }

    @Test
    void provisionIsForSystemMembersAndOwnerMembersAndLesseeAdmins() {
        assertEquals(EnumSet.of(Persona.SYSTEM_ADMIN, Persona.SYSTEM_MEMBER, Persona.SYSTEM_SERVICE, Persona.OWNER_ADMIN,
                Persona.OWNER_MEMBER, Persona.OWNER_SERVICE, Persona.LESSEE_ADMIN), allowed("baremetal:node:set_provision_state"));
        assertEquals(EnumSet.of(Persona.SYSTEM_ADMIN, Persona.SYSTEM_MEMBER, Persona.SYSTEM_SERVICE, Persona.OWNER_ADMIN,
                Persona.OWNER_MEMBER, Persona.LESSEE_ADMIN, Persona.LESSEE_MEMBER), allowed("baremetal:node:set_power_state"));
    }

    @Test
    void driverInfoIsHiddenFromLesseesAndReadersElsewhere() {
        Set<Persona> see = allowed("baremetal:node:get:driver_info");
        assertFalse(see.contains(Persona.LESSEE_ADMIN));
        assertTrue(see.contains(Persona.OWNER_READER));
        assertTrue(see.contains(Persona.SYSTEM_READER));
        assertEquals(EnumSet.of(Persona.SYSTEM_ADMIN, Persona.SYSTEM_MEMBER, Persona.SYSTEM_SERVICE),
                allowed("baremetal:node:update:owner"));
    }

    @Test
    void decisionsAre404ForNodesTheCallerCannotSee() {
        Set<String> delete = IntentRules.required(io.ironflow.events.DeleteNode.newBuilder().build());
        assertEquals(Policy.Decision.NOT_FOUND, policy.decide(delete, Persona.OTHER_ADMIN.principal(), Persona.NODE));
        assertEquals(Policy.Decision.FORBIDDEN, policy.decide(delete, Persona.OWNER_ADMIN.principal(), Persona.NODE));
        assertEquals(Policy.Decision.ALLOWED, policy.decide(delete, Persona.SYSTEM_ADMIN.principal(), Persona.NODE));
    }

    @Test
    void onlyACallerPassingOnEveryNodeIsAllowedWhoeverOwnsIt() {
        Set<String> delete = IntentRules.required(io.ironflow.events.DeleteNode.newBuilder().build());
        assertTrue(policy.allowsWhoeverOwns(delete, Persona.SYSTEM_ADMIN.principal()));
        assertTrue(policy.allowsWhoeverOwns(delete, Principal.NOAUTH));
        for (Persona persona : List.of(Persona.OWNER_ADMIN, Persona.OTHER_ADMIN, Persona.LESSEE_ADMIN, Persona.SYSTEM_READER)) {
            assertFalse(policy.allowsWhoeverOwns(delete, persona.principal()), persona.name());
        }
        // Non-monotone rules: passing on an unowned node, or on another project's, is not passing on every node.
        Principal member = new Principal("u", "p", Set.of("member"), false);
        Policy notMine = Policy.withOverrides(java.util.Map.of("x", "not project_id:%(node.owner)s"));
        assertTrue(notMine.allows("x", member, NodeOwnership.NONE));
        assertFalse(notMine.allowsWhoeverOwns(Set.of("x"), member));
        Policy notLeased = Policy.withOverrides(java.util.Map.of("x", "role:member and not project_id:%(node.lessee)s"));
        assertFalse(notLeased.allowsWhoeverOwns(Set.of("x"), member));
        Policy anyMember = Policy.withOverrides(java.util.Map.of("x", "role:member or project_id:%(node.owner)s"));
        assertTrue(anyMember.allowsWhoeverOwns(Set.of("x"), member));
    }

    @Test
    void aNodePatchNeedsEachFieldsRule() {
        assertEquals(Set.of("baremetal:node:update:owner", "baremetal:node:update"), IntentRules.required(
                UpdateNode.newBuilder().setPatch("[{\"op\":\"replace\",\"path\":\"/owner\",\"value\":\"x\"},"
                        + "{\"op\":\"add\",\"path\":\"/description\",\"value\":\"d\"}]").build()));
        assertEquals(Set.of("baremetal:node:update_extra"), IntentRules.required(
                UpdateNode.newBuilder().setPatch("[{\"op\":\"add\",\"path\":\"/extra/a\",\"value\":1}]").build()));
        assertEquals(Set.of("baremetal:node:disable_cleaning"), IntentRules.required(
                UpdateNode.newBuilder().setPatch("[{\"op\":\"replace\",\"path\":\"/automated_clean\",\"value\":false}]").build()));
        // Ironic asks bool_from_string(value) is False: each spelling of false needs disable_cleaning, not update.
        for (String off : List.of("\"false\"", "\"False\"", "\"0\"", "\"no\"", "\"off\"", "\" n \"", "\"f\"", "0")) {
            assertEquals(Set.of("baremetal:node:disable_cleaning"), IntentRules.required(UpdateNode.newBuilder()
                    .setPatch("[{\"op\":\"replace\",\"path\":\"/automated_clean\",\"value\":" + off + "}]").build()), off);
        }
        for (String on : List.of("true", "\"true\"", "1", "\"maybe\"", "null", "0.0", "[false]")) {
            assertEquals(Set.of("baremetal:node:update"), IntentRules.required(UpdateNode.newBuilder()
                    .setPatch("[{\"op\":\"replace\",\"path\":\"/automated_clean\",\"value\":" + on + "}]").build()), on);
        }
        assertEquals(Set.of("baremetal:node:clear_maintenance"),
                IntentRules.required(SetMaintenance.newBuilder().setMaintenance(false).build()));
        assertEquals(Set.of("baremetal:node:create"), IntentRules.required(CreateNode.newBuilder().setDriver("fake-hardware").build()));
    }

    @Test
    void theCheckLanguageFollowsOsloPolicy() {
        Principal member = new Principal("u", "p", Set.of("member"), false);
        Policy custom = Policy.withOverrides(java.util.Map.of(
                "a", "not role:admin and (project_id:p or @)",
                "b", "!",
                "c", "",
                "d", "rule:a or rule:nowhere"));
        assertTrue(custom.allows("a", member, NodeOwnership.NONE));
        assertFalse(custom.allows("b", member, NodeOwnership.NONE));
        assertTrue(custom.allows("c", member, NodeOwnership.NONE));
        assertTrue(custom.allows("d", member, NodeOwnership.NONE));
        assertFalse(custom.allows("no such rule", member, NodeOwnership.NONE));
        for (String bad : List.of("role:admin and", "(role:admin", "user_id:x", "project_id:%(node.uuid)s", "role:a role:b")) {
            assertThrows(IllegalArgumentException.class, () -> Policy.withOverrides(java.util.Map.of("x", bad)), bad);
        }
    }

    @Test
    void aPolicyFileOverridesRulesByName(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("policy.yaml");
        Files.writeString(file, "# operators may let owner admins delete their nodes\n"
                + "\"baremetal:node:delete\": \"role:admin and (system_scope:all or project_id:%(node.owner)s)\"\n");
        Policy overridden = Policy.load(file);
        assertTrue(overridden.allows("baremetal:node:delete", Persona.OWNER_ADMIN.principal(), Persona.NODE));
        assertFalse(overridden.allows("baremetal:node:delete", Persona.LESSEE_ADMIN.principal(), Persona.NODE));
        assertTrue(overridden.allows("baremetal:node:create", Persona.SYSTEM_ADMIN.principal(), Persona.NODE), "others stay");
        Files.writeString(file, "\"baremetal:node:delete\": \"role:admin or\"\n");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Policy.load(file));
        assertTrue(e.getMessage().contains("policy.yaml"), e.getMessage());
    }
}
