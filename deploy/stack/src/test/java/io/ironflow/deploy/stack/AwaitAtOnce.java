package io.ironflow.deploy.stack;

import java.time.Duration;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Makes every Awaitility wait of this module check its condition at once, then every poll interval. Awaitility's
 * own default delays the first check by one interval, which a test that waits for many nodes in turn pays once per
 * node even when all of them are there: a hundred nodes at 200 ms cost 20 s per wave. Registered for every class of
 * this module, as {@link SharedStackScope} is (META-INF/services/org.junit.jupiter.api.extension.Extension).
 */
public final class AwaitAtOnce implements BeforeAllCallback {

    @Override
    public void beforeAll(ExtensionContext context) {
        Awaitility.setDefaultPollDelay(Duration.ZERO);
    }
}
