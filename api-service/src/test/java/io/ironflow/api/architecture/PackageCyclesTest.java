package io.ironflow.api.architecture;

import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * The API's packages form no cycle: errors and documents at the bottom, versions above errors, the router's
 * refusals (limits) above both, and the resources (nodes, drivers, ports...) above them, each reading only down.
 * Fails naming the cycle when a class closes one.
 */
class PackageCyclesTest {

    @Test
    void theApisPackagesFormNoCycle() {
        slices().matching("io.ironflow.api.(**)").should().beFreeOfCycles().check(new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS).importPackages("io.ironflow.api"));
    }
}
