package io.ironflow.teardown.architecture;

import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * The teardown orchestrator's packages form no cycle: status at the bottom, its peers' clients (etcd, kube,
 * ironflow) above it, the steps above those, the actions above the steps, the Airship API on top. Fails naming the
 * cycle when a class closes one.
 */
class PackageCyclesTest {

    @Test
    void theOrchestratorsPackagesFormNoCycle() {
        slices().matching("io.ironflow.teardown.(**)").should().beFreeOfCycles().check(new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS).importPackages("io.ironflow.teardown"));
    }
}
