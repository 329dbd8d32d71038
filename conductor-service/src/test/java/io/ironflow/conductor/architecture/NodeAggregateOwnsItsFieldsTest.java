package io.ironflow.conductor.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaFieldAccess;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import io.ironflow.conductor.persistence.NodeEntity;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The node aggregate ({@code node.Node}) is the one writer of a node's life-cycle fields: no class outside it sets
 * them on a {@link NodeEntity} (persistence's enrollment, which creates the row, aside). Fails naming the class and
 * line that writes one directly.
 */
class NodeAggregateOwnsItsFieldsTest {

    private static final Set<String> LIFE_CYCLE = Set.of("provisionState", "targetProvisionState", "provisionUpdatedAt",
            "lastError", "reservation", "maintenance", "maintenanceReason", "retired", "retiredReason", "powerState",
            "targetPowerState", "revision", "updatedAt", "conductor");

    @Test
    void onlyTheAggregateWritesANodesLifeCycleFields() {
        JavaClasses conductor = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("io.ironflow.conductor");
        noClasses().that().resideOutsideOfPackages("io.ironflow.conductor.node..", "io.ironflow.conductor.persistence..")
                .should().setFieldWhere(DescribedPredicate.describe("a life-cycle field of NodeEntity",
                        (JavaFieldAccess access) -> access.getTargetOwner().isEquivalentTo(NodeEntity.class)
                                && LIFE_CYCLE.contains(access.getTarget().getName())))
                .check(conductor);
    }
}
