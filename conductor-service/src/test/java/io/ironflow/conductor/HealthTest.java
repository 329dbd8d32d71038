package io.ironflow.conductor;

import io.ironflow.deploy.testing.IronflowTestInfrastructure;
import io.ironflow.deploy.testing.ServiceHealthContract;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;

/** The service starts against the real broker, reports ready only with it, and answers over HTTP/1.1. */
@QuarkusTest
@QuarkusTestResource(IronflowTestInfrastructure.class)
class HealthTest extends ServiceHealthContract {
}
