package io.ironflow.conductor.domain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/** Ironic's trait rules: standard os-traits names or CUSTOM_[A-Z0-9_]+, 255 characters, 50 per node. */
class TraitsTest {

    private static final String NODE = "0b6e2a4c-1f7e-4c1a-9d55-7d3f1c2b9a10";

    @ParameterizedTest
    @ValueSource(strings = {"CUSTOM_A", "CUSTOM_RAID_1", "HW_CPU_X86_AVX2", "COMPUTE_ARCH_AARCH64", "STORAGE_DISK_SSD"})
    void standardAndCustomNamesAreValid(String name) {
        Traits.requireValid(name);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "CUSTOM_", "custom_a", "CUSTOM_a", "CUSTOM-A", "HW_NOT_A_TRAIT", "CUSTOM_A B"})
    void otherNamesAreRefusedWithIronicsMessage(String name) {
        Rejection refused = assertThrows(Rejection.class, () -> Traits.requireValid(name));
        assertEquals(400, refused.code());
        assertTrue(refused.getMessage().startsWith("Invalid trait. A valid trait must be no longer than 255 characters."));
    }

    @Test
    void twoHundredFiftyFiveCharactersAtMost() {
        String longest = "CUSTOM_" + "X".repeat(255 - 7);
        Traits.requireValid(longest);
        assertThrows(Rejection.class, () -> Traits.requireValid(longest + "X"));
    }

    @Test
    void standardTraitsAreTheLibrarysNotEveryUpperCaseName() {
        assertTrue(Traits.isStandard("HW_CPU_X86_AVX2"));
        assertTrue(!Traits.isStandard("CUSTOM_A"));
    }

    @Test
    void setAddRemoveKeepASortedSetAndAMissingTraitIs404() {
        List<String> set = Traits.apply(NODE, List.of("CUSTOM_OLD"), "set", List.of("CUSTOM_B", "CUSTOM_A", "CUSTOM_B"));
        assertEquals(List.of("CUSTOM_A", "CUSTOM_B"), set);
        assertEquals(List.of("CUSTOM_A", "CUSTOM_B", "CUSTOM_C"), Traits.apply(NODE, set, "add", List.of("CUSTOM_C")));
        assertEquals(List.of("CUSTOM_B"), Traits.apply(NODE, set, "remove", List.of("CUSTOM_A")));
        assertEquals(List.of(), Traits.apply(NODE, set, "remove", List.of()));
        Rejection missing = assertThrows(Rejection.class, () -> Traits.apply(NODE, set, "remove", List.of("CUSTOM_Z")));
        assertEquals(404, missing.code());
        assertEquals("Node " + NODE + " doesn't have a trait 'CUSTOM_Z'", missing.getMessage());
    }

    @Test
    void fiftyTraitsAtMost() {
        List<String> fifty = new ArrayList<>(IntStream.range(0, 50).mapToObj(i -> "CUSTOM_T" + i).toList());
        assertEquals(50, Traits.apply(NODE, List.of(), "set", fifty).size());
        Rejection refused = assertThrows(Rejection.class, () -> Traits.apply(NODE, fifty, "add", List.of("CUSTOM_ONE_MORE")));
        assertEquals(400, refused.code());
        assertTrue(refused.getMessage().contains("(51 vs. 50)"), refused.getMessage());
    }

    @Test
    void anUnknownOperationIs400() {
        assertEquals(400, assertThrows(Rejection.class, () -> Traits.apply(NODE, List.of(), "merge", List.of())).code());
    }
}
