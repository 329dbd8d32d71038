package io.ironflow.conductor.messaging;

import io.ironflow.deploy.testing.IronflowTestInfrastructure;
import io.ironflow.deploy.testing.NoThreadContextPropagationContract;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;

/**
 * The running conductor hands Mutiny no callback decorator (it cost 8 % of its CPU): the conductor's tests
 * therefore run as production does, without it.
 */
@QuarkusTest
@QuarkusTestResource(IronflowTestInfrastructure.class)
class NoThreadContextPropagationTest extends NoThreadContextPropagationContract {
}
