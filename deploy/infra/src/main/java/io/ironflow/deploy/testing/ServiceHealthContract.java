package io.ironflow.deploy.testing;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.restassured.RestAssured;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;

/**
 * What every Ironflow service promises its orchestrator and its clients: live once started, ready only with the
 * broker, answering over HTTP/1.1. A module's {@code @QuarkusTest} extends it to run these against that service.
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

    /**
     * HTTP/1.1 only ({@code quarkus.http.http2=false}): the JDK's HttpClient offers an h2c upgrade on every new
     * connection, and Vert.x's upgrade corrupted large answers (the client read the body as HTTP/2 frames:
     * "Frame type(34) length(7105580) exceeds MAX_FRAME_SIZE", seen on a 3.8 MB answer). The offer is declined.
     */
    @Test
    void aClientOfferingAnH2cUpgradeIsAnsweredOverHttp11() throws Exception {
        URI live = URI.create(RestAssured.baseURI + ":" + RestAssured.port + "/q/health/live");
        HttpResponse<String> answer = HttpClient.newHttpClient()
                .send(HttpRequest.newBuilder(live).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, answer.statusCode(), answer.body());
        assertEquals(HttpClient.Version.HTTP_1_1, answer.version());
    }
}
