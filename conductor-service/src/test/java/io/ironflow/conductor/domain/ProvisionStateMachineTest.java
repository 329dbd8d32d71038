package io.ironflow.conductor.domain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ironflow.conductor.domain.ProvisionStateMachine.Transition;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class ProvisionStateMachineTest {

    @Test
    void theTableIsIronicsTable() throws IOException {
        // ironic-transitions.tsv: source, event, target, extracted from Ironic 21.4's ironic/common/states.py.
        Set<String> ironic;
        try (InputStream in = getClass().getResourceAsStream("/ironic-transitions.tsv")) {
            ironic = new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().skip(1)
                    .filter(line -> !line.isBlank()).collect(Collectors.toSet());
        }
        Set<String> ours = ProvisionStateMachine.table().stream()
                .map(t -> t.from().wire() + "\t" + t.event().wire() + "\t" + t.to().wire())
                .collect(Collectors.toSet());
        assertEquals(ironic, ours);
        assertEquals(ironic.size(), ProvisionStateMachine.table().size(), "no edge listed twice");
    }

    @Test
    void everyStateIsReachableAndStableStatesAreIronics() {
        Set<ProvisionState> touched = EnumSet.noneOf(ProvisionState.class);
        for (Transition t : ProvisionStateMachine.table()) {
            touched.add(t.from());
            touched.add(t.to());
        }
        assertEquals(EnumSet.allOf(ProvisionState.class), touched);
        Set<String> stable = Arrays.stream(ProvisionState.values()).filter(ProvisionState::stable)
                .map(ProvisionState::wire).collect(Collectors.toSet());
        assertEquals(Set.of("enroll", "manageable", "available", "active", "error", "rescue"), stable);
    }

    @Test
    void eachEdgeSaysWhy() {
        assertTrue(ProvisionStateMachine.table().stream().noneMatch(t -> t.why().isBlank()));
    }

    @Test
    void verbsRaiseTheirEvents() {
        assertEquals(ProvisionState.DEPLOYING,
                ProvisionStateMachine.next(ProvisionState.AVAILABLE, ProvisionVerb.fromWire("active").orElseThrow().event()).orElseThrow());
        assertEquals(ProvisionState.DELETING,
                ProvisionStateMachine.next(ProvisionState.ACTIVE, ProvisionVerb.fromWire("undeploy").orElseThrow().event()).orElseThrow());
        assertTrue(ProvisionStateMachine.next(ProvisionState.ENROLL, ProvisionEvent.PROVIDE).isEmpty());
        assertTrue(ProvisionVerb.fromWire("explode").isEmpty());
    }
}
