package io.ironflow.teardown.api;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ironflow.deploy.testing.IronflowTestInfrastructure;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.response.Response;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Shipyard's admin_required for the site design over HTTP (issue 58): a system reader or member, whom the port
 * lets read actions, is refused configdocs, their status and rendered documents (403, an Airship status); an admin
 * reads them.
 */
@QuarkusTest
@QuarkusTestResource(IronflowTestInfrastructure.class)
@TestProfile(BasicAuthProfile.class)
class SiteDesignReadersTest {

    @Test
    void aSystemReaderIsRefusedTheSiteDesignAndAnAdminReadsIt() {
        given().auth().preemptive().basic("admin", "admin-secret").contentType("application/x-yaml")
                .body("schema: deckhand/Passphrase/v1\nmetadata: {name: ipmi, storagePolicy: cleartext}\ndata: hunter2\n"
                        .getBytes(StandardCharsets.UTF_8))
                .post("/api/v1.0/configdocs/secrets").then().statusCode(201);
        List<String> paths = List.of("/api/v1.0/configdocs", "/api/v1.0/configdocs/secrets",
                "/api/v1.0/revisions/1/rendered-documents");
        for (String user : List.of("reader", "member")) {
            for (String path : paths) {
                Response refused = given().auth().preemptive().basic(user, user + "-secret").get(path);
                assertEquals(403, refused.statusCode(), user + " " + path + ": " + refused.asString());
                assertTrue(refused.asString().contains("workflow_orchestrator:get_"), refused.asString());
            }
        }
        Response collection = given().auth().preemptive().basic("admin", "admin-secret").get("/api/v1.0/configdocs/secrets");
        assertEquals(200, collection.statusCode(), collection.asString());
        assertTrue(collection.asString().contains("hunter2"), collection.asString());
        assertEquals(200, given().auth().preemptive().basic("admin", "admin-secret").get("/api/v1.0/configdocs").statusCode());
    }
}
