package io.ironflow.teardown;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;

import io.ironflow.deploy.testing.IronflowTestInfrastructure;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;

/** The service starts against the real broker and reports ready only with it. */
@QuarkusTest
@QuarkusTestResource(IronflowTestInfrastructure.class)
class HealthTest {

    @Test
    void readyWithKafka() {
        given().get("/q/health/ready").then().statusCode(200)
                .body("status", equalTo("UP"))
                .body("checks.find { it.name == 'Kafka connection health check' }.status", equalTo("UP"));
    }

    @Test
    void live() {
        given().get("/q/health/live").then().statusCode(200).body("status", equalTo("UP"));
    }
}
