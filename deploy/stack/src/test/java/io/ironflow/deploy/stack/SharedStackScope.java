package io.ironflow.deploy.stack;

import java.util.Arrays;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Stops the {@link SharedStack} before any test class that does not share it, so it never runs beside another
 * class's own stack or JVMs (two cores) and does not idle through the rest of the run. Registered for every class
 * of this module (junit-platform.properties turns on the auto-detection of
 * META-INF/services/org.junit.jupiter.api.extension.Extension); the sharing classes run first, so the stack stops
 * once, after the last of them.
 */
public final class SharedStackScope implements BeforeAllCallback {

    @Override
    public void beforeAll(ExtensionContext context) {
        ExtendWith extensions = context.getRequiredTestClass().getAnnotation(ExtendWith.class);
        if (extensions == null || Arrays.stream(extensions.value()).noneMatch(SharedStack.class::equals)) {
            SharedStack.stop();
        }
    }
}
