package io.ironflow.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ironflow.events.CreateNode;
import io.ironflow.events.UpdateNode;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Issue 58's OneView confused deputy, at the policy: an owner member may not point its node at other hardware (the
 * allocator would act on it with the appliance administrator's session); system members, admins and Ironflow's
 * services may; nobody but the allocator records the applied profile.
 */
class HardwareAddressesTest {

    private final Policy policy = Policy.defaults();

    @Test
    void ownerMembersMayNotPatchAFieldThatAddressesHardware() {
        for (String field : Set.of("server_hardware_uri", "dynamic_allocation", "redfish_address", "ipmi_address")) {
            Set<String> rules = IntentRules.required(new UpdateNode(
                    "[{\"op\":\"add\",\"path\":\"/driver_info/" + field + "\",\"value\":\"x\"}]"));
            assertTrue(rules.contains(HardwareAddresses.RULE), field + ": " + rules);
            assertEquals(Policy.Decision.FORBIDDEN, policy.decide(rules, Persona.OWNER_MEMBER.principal(), Persona.NODE));
            assertEquals(Policy.Decision.FORBIDDEN, policy.decide(rules, Persona.OWNER_ADMIN.principal(), Persona.NODE));
            assertEquals(Policy.Decision.ALLOWED, policy.decide(rules, Persona.SYSTEM_MEMBER.principal(), Persona.NODE));
            assertEquals(Policy.Decision.ALLOWED, policy.decide(rules, Persona.SYSTEM_SERVICE.principal(), Persona.NODE));
        }
        Set<String> other = IntentRules.required(new UpdateNode("[{\"op\":\"add\",\"path\":\"/driver_info/deploy_kernel\",\"value\":\"x\"}]"));
        assertEquals(Set.of("baremetal:node:update:driver_info"), other, "other driver_info fields stay the owner's");
    }

    @Test
    void onlySystemMembersAndServicesPassTheRule() {
        Set<Persona> allowed = EnumSet.noneOf(Persona.class);
        for (Persona p : Persona.values()) {
            if (policy.allows(HardwareAddresses.RULE, p.principal(), Persona.NODE)) {
                allowed.add(p);
            }
        }
        assertEquals(EnumSet.of(Persona.SYSTEM_ADMIN, Persona.SYSTEM_MEMBER, Persona.SYSTEM_SERVICE), allowed);
    }

    @Test
    void aCreationNamingHardwareNeedsTheRule() {
        assertEquals(Set.of("baremetal:node:create", HardwareAddresses.RULE), IntentRules.required(CreateNode.newBuilder()
                .setDriver("oneview").setDriverInfo("{\"server_hardware_uri\":\"/rest/server-hardware/1\"}").build()));
        assertEquals(Set.of("baremetal:node:create"), IntentRules.required(CreateNode.newBuilder()
                .setDriver("fake-hardware").setDriverInfo("{\"deploy_kernel\":\"k\"}").build()));
    }

    @Test
    void changedSeesAWholeReplacementAndTheAppliedProfile() {
        Map<String, Object> before = Map.of("server_hardware_uri", "/rest/server-hardware/1", "deploy_kernel", "k");
        assertEquals(Set.of(), HardwareAddresses.changed(before, Map.of("server_hardware_uri", "/rest/server-hardware/1")));
        assertEquals(Set.of("server_hardware_uri", "applied_server_profile_uri"), HardwareAddresses.changed(before,
                Map.of("server_hardware_uri", "/rest/server-hardware/2", "applied_server_profile_uri", "/rest/server-profiles/v")));
    }

    @Test
    void onlyTheAllocatorRecordsTheAppliedProfile() {
        assertTrue(HardwareAddresses.mayRecordAppliedProfile(Principal.service("oneview-allocator")));
        assertFalse(HardwareAddresses.mayRecordAppliedProfile(Principal.service("teardown-orchestrator")));
        assertFalse(HardwareAddresses.mayRecordAppliedProfile(Principal.NOAUTH));
        assertFalse(HardwareAddresses.mayRecordAppliedProfile(Persona.SYSTEM_ADMIN.principal()));
    }
}
