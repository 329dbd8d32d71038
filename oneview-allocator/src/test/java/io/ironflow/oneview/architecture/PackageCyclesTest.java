package io.ironflow.oneview.architecture;

import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * The allocator's packages form no cycle: the OneView client at the bottom, allocation above it, messaging above
 * allocation, the periodic checks above messaging, the migration tool on top. Fails naming the cycle when a class
 * closes one.
 */
class PackageCyclesTest {

    @Test
    void theAllocatorsPackagesFormNoCycle() {
        slices().matching("io.ironflow.oneview.(**)").should().beFreeOfCycles().check(new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS).importPackages("io.ironflow.oneview"));
    }
}
