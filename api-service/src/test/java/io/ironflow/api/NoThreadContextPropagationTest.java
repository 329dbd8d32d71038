package io.ironflow.api;

import io.ironflow.deploy.testing.NoThreadContextPropagationContract;
import io.quarkus.test.junit.QuarkusTest;

/**
 * The running API hands Mutiny no callback decorator: its tests therefore run as production does, and every
 * answer rendered after an intent's result (which reads the request's microversion) shows that the request goes on
 * in its own context (IntentGateway hands the result back to it).
 */
@QuarkusTest
class NoThreadContextPropagationTest extends NoThreadContextPropagationContract {
}
