package io.ironflow.api;

import static org.junit.jupiter.api.Assertions.assertSame;

import io.quarkus.test.junit.QuarkusTest;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * The running API hands Mutiny no callback decorator (application.properties hides
 * mutiny-smallrye-context-propagation's service file): its tests therefore run as production does, and every
 * answer rendered after an intent's result (which reads the request's microversion) shows that the request goes on
 * in its own context (IntentGateway hands the result back to it).
 */
@QuarkusTest
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
