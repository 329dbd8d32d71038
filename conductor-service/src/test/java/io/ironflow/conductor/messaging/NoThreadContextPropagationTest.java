package io.ironflow.conductor.messaging;

import static org.junit.jupiter.api.Assertions.assertSame;

import io.ironflow.deploy.testing.IronflowTestInfrastructure;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * The running conductor hands Mutiny no callback decorator: its operators' callbacks are not wrapped to capture and
 * restore thread context (application.properties hides mutiny-smallrye-context-propagation's service file), which
 * cost 8 % of its CPU. The conductor's tests therefore run as production does, without it.
 */
@QuarkusTest
@QuarkusTestResource(IronflowTestInfrastructure.class)
class NoThreadContextPropagationTest {

    @Test
    void mutinyCallbacksAreNotDecorated() {
        Runnable runnable = () -> {
        };
        Function<String, String> function = String::trim;
        assertSame(runnable, Infrastructure.decorate(runnable));
        assertSame(function, Infrastructure.decorate(function));
    }
}
