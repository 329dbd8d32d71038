package io.ironflow.api;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.quarkus.test.junit.QuarkusTest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * docs/openapi.yaml is the document the API serves at /q/openapi, never written by hand. Run with
 * {@code -Dironflow.write-docs=true} to rewrite it after changing an endpoint.
 */
@QuarkusTest
class OpenApiDocumentTest {

    private static final Path DOCUMENT = Path.of("..", "docs", "openapi.yaml");

    @Test
    void docsOpenapiYamlIsWhatTheApiServes() throws IOException {
        String served = given().get("/q/openapi").then().statusCode(200).extract().asString();
        if (Boolean.getBoolean("ironflow.write-docs")) {
            Files.writeString(DOCUMENT, served);
        }
        assertEquals(served, Files.exists(DOCUMENT) ? Files.readString(DOCUMENT) : "",
                "docs/openapi.yaml is stale: run ./mvnw -pl api-service verify -Dtest=OpenApiDocumentTest -Dironflow.write-docs=true");
    }
}
