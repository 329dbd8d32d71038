package io.ironflow.deploy.testing;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;

import org.junit.jupiter.api.Test;

/**
 * What every Ironflow service promises its orchestrator: live once started, ready only with the broker.
 * A module's {@code @QuarkusTest} extends it to run these against that service.
 */
public abstract class ServiceHealthContract {

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
