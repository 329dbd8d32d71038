package io.ironflow.deploy.testing;

import static org.junit.jupiter.api.Assertions.assertSame;

import io.smallrye.mutiny.infrastructure.Infrastructure;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * What a service that hides mutiny-smallrye-context-propagation's service file (its application.properties'
 * {@code quarkus.class-loading.removed-resources}) promises: Mutiny hands its operators' callbacks back as they
 * are, not wrapped to capture and restore thread context around every call. A module's {@code @QuarkusTest}
 * extends it to check that of the running service, so a changed artifact coordinate cannot quietly bring the
 * decorator back.
 */
public abstract class NoThreadContextPropagationContract {

    @Test
    void mutinyCallbacksAreNotDecorated() {
        Runnable runnable = () -> {
        };
        Function<String, String> function = String::trim;
        assertSame(runnable, Infrastructure.decorate(runnable));
        assertSame(function, Infrastructure.decorate(function));
    }
}
