package io.ironflow.conductor.architecture;

import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * The conductor's packages form no cycle: each depends on the others in one direction only (domain at the
 * bottom, the hardware drivers under it free of the node's rules, intents and work above them), so a package can
 * be read, and changed, knowing only what is below it. Fails naming the cycle when a class closes one.
 */
class PackageCyclesTest {

    @Test
    void theConductorsPackagesFormNoCycle() {
        JavaClasses conductor = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("io.ironflow.conductor");
        slices().matching("io.ironflow.conductor.(**)").should().beFreeOfCycles().check(conductor);
    }
}
