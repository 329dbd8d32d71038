package io.ironflow.oneview.simulator;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.anyOf;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The simulator over HTTP, as the allocator and OneView's own clients use it: OneView's rules, shapes and faults. */
@QuarkusTest
class OneViewApiTest {

    @TestHTTPResource("/admin/calls")
    java.net.URI h2cProbe;

    /**
     * HTTP/1.1 only: the JDK's HttpClient offers an h2c upgrade on every new connection, and Vert.x's upgrade
     * corrupted large answers (the client read the body as HTTP/2 frames: "Frame type(34) length(7105580) exceeds
     * MAX_FRAME_SIZE", seen on a 3.8 MB call log). The offer is declined; the answer comes over HTTP/1.1.
     */
    @Test
    void aClientOfferingAnH2cUpgradeIsAnsweredOverHttp11() throws Exception {
        java.net.http.HttpResponse<String> answer = java.net.http.HttpClient.newHttpClient().send(
                java.net.http.HttpRequest.newBuilder(h2cProbe).build(), java.net.http.HttpResponse.BodyHandlers.ofString());
        assertEquals(200, answer.statusCode(), answer.body());
        assertEquals(java.net.http.HttpClient.Version.HTTP_1_1, answer.version());
    }


    private static final String SH1 = "30303437-0000-4000-8000-000000000001";
    private static final String SH2 = "30303437-0000-4000-8000-000000000002";
    private static final String SH3 = "30303437-0000-4000-8000-000000000003";

    @AfterEach
    void clean() {
        given().delete("/admin/faults").then().statusCode(204);
        for (String sh : List.of(SH1, SH2, SH3)) {
            given().delete("/admin/server-hardware/" + sh + "/profile").then().statusCode(204);
        }
    }

    private static String login() {
        return given().header("X-API-Version", 800).contentType("application/json")
                .body(Map.of("userName", "administrator", "password", "ironflow"))
                .post("/rest/login-sessions").then().statusCode(200).extract().path("sessionID");
    }

    private static RequestSpecification oneView(String session) {
        return given().header("X-API-Version", 800).header("auth", session).contentType("application/json");
    }

    private static Map<String, Object> awaitTask(String session, String location, String end) {
        List<String> seen = new ArrayList<>();
        Map<String, Object>[] task = new Map[1];
        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(20)).until(() -> {
            task[0] = oneView(session).get(location).then().statusCode(200).extract().jsonPath().getMap("");
            String state = (String) task[0].get("taskState");
            if (seen.isEmpty() || !seen.get(seen.size() - 1).equals(state)) {
                seen.add(state);
            }
            return !state.equals("New") && !state.equals("Running");
        });
        assertEquals(end, task[0].get("taskState"), () -> "task " + task[0]);
        // Polling may miss a phase on a loaded machine, but never sees a task go back (New, Running, then its end).
        List<String> order = List.of("New", "Running", end);
        for (int i = 1; i < seen.size(); i++) {
            assertTrue(order.indexOf(seen.get(i - 1)) < order.indexOf(seen.get(i)), "states seen " + seen);
        }
        return task[0];
    }

    @Test
    void versionNeedsNoSessionAndUnsupportedVersionsAre412() {
        given().get("/rest/version").then().statusCode(200)
                .body("currentVersion", equalTo(2000)).body("minimumVersion", equalTo(120));
        String session = login();
        given().header("auth", session).get("/rest/server-hardware").then().statusCode(412)
                .body("errorCode", equalTo("UNSUPPORTED_VERSION")).body("recommendedActions", hasSize(1));
        given().header("auth", session).header("X-API-Version", 99999).get("/rest/server-hardware").then().statusCode(412);
        oneView(session).get("/rest/server-hardware").then().statusCode(200);
    }

    @Test
    void sessionsLogInOutAndExpire() {
        given().header("X-API-Version", 800).contentType("application/json")
                .body(Map.of("userName", "administrator", "password", "wrong"))
                .post("/rest/login-sessions").then().statusCode(401).body("errorCode", equalTo("AUTHN_AUTH_FAIL"));
        given().header("X-API-Version", 800).get("/rest/server-hardware").then().statusCode(401)
                .body("errorCode", equalTo("AUTHORIZATION"));
        String session = login();
        given().header("X-API-Version", 800).header("Auth", session).get("/rest/server-hardware").then().statusCode(200);
        oneView(session).delete("/rest/login-sessions").then().statusCode(204);
        oneView(session).get("/rest/server-hardware").then().statusCode(401);

        String other = login();
        given().contentType("application/json").body(Map.of("type", "expire-sessions")).post("/admin/faults").then().statusCode(201);
        oneView(other).get("/rest/server-hardware").then().statusCode(401);
    }

    @Test
    void collectionsPageAndFilter() {
        String session = login();
        oneView(session).get("/rest/server-hardware").then().statusCode(200)
                .body("total", equalTo(15)).body("members", hasSize(15)).body("nextPageUri", nullValue());
        Response page = oneView(session).get("/rest/server-hardware?start=0&count=4");
        page.then().statusCode(200).body("count", equalTo(4)).body("total", equalTo(15))
                .body("nextPageUri", equalTo("/rest/server-hardware?start=4&count=4"));
        oneView(session).get("/rest/server-hardware?start=12&count=4").then()
                .body("count", equalTo(3)).body("nextPageUri", nullValue()).body("prevPageUri", equalTo("/rest/server-hardware?start=8&count=4"));
        oneView(session).queryParam("filter", "\"name='Encl1, bay 2'\"").get("/rest/server-hardware").then()
                .body("total", equalTo(1)).body("members[0].uri", equalTo("/rest/server-hardware/" + SH2))
                .body("members[0].serverProfileUri", nullValue()).body("members[0].powerState", equalTo("Off"));
        oneView(session).queryParam("filter", "name matches 'Generated%'").get("/rest/server-hardware").then()
                .body("total", equalTo(5));
        oneView(session).queryParam("filter", "serverProfileUri=null").queryParam("filter", "name matches 'Encl1%'")
                .get("/rest/server-hardware").then().body("total", equalTo(10));
        oneView(session).queryParam("filter", "name ~~ x").get("/rest/server-hardware").then().statusCode(400)
                .body("errorCode", equalTo("INVALID_FILTER"));
        oneView(session).get("/rest/server-profile-templates").then().body("total", equalTo(2));
        oneView(session).get("/rest/server-hardware/nope").then().statusCode(404).body("errorCode", equalTo("RESOURCE_NOT_FOUND"));
    }

    @Test
    void profileFromTemplateIsAppliedByATaskAndRemovedFromPoweredOffHardware() {
        String session = login();
        Map<String, Object> profile = oneView(session).get("/rest/server-profile-templates/spt-dl-ironic/new-profile")
                .then().statusCode(200).body("serverProfileTemplateUri", equalTo("/rest/server-profile-templates/spt-dl-ironic"))
                .extract().jsonPath().getMap("");
        profile.put("name", "Ironic Cleaning [n1]");
        profile.put("serverHardwareUri", "/rest/server-hardware/" + SH1);
        profile.put("serverProfileTemplateUri", "");
        Response created = oneView(session).body(profile).post("/rest/server-profiles");
        created.then().statusCode(202).body("taskState", equalTo("New")).body("category", equalTo("tasks"));
        String location = created.header("Location");
        assertTrue(location.startsWith("/rest/tasks/"), location);
        // The hardware is taken at once; a second profile is refused. (On a loaded machine the 100 ms task may
        // already have ended, so either state shows the hardware taken.)
        oneView(session).get("/rest/server-hardware/" + SH1).then().body("serverProfileUri", notNullValue())
                .body("state", anyOf(equalTo("ApplyingProfile"), equalTo("ProfileApplied")));
        Map<String, Object> other = new java.util.HashMap<>(profile);
        other.put("name", "other");
        oneView(session).body(other).post("/rest/server-profiles").then().statusCode(409)
                .body("errorCode", equalTo("PROFILE_ALREADY_EXISTS_IN_SERVER"));

        Map<String, Object> task = awaitTask(session, location, "Completed");
        String profileUri = (String) ((Map<?, ?>) task.get("associatedResource")).get("resourceUri");
        oneView(session).get("/rest/server-hardware/" + SH1).then().body("serverProfileUri", equalTo(profileUri))
                .body("state", equalTo("ProfileApplied"));
        Response sp = oneView(session).get(profileUri);
        sp.then().statusCode(200).body("name", equalTo("Ironic Cleaning [n1]")).body("serverProfileTemplateUri", equalTo(""));
        String etag = sp.header("ETag");

        // Stale eTag: 412, nothing changes.
        oneView(session).header("If-Match", "0").delete(profileUri).then().statusCode(412).body("errorCode", equalTo("ETAG_MISMATCH"));

        // Powered on: the delete task fails and the profile stays.
        Response on = oneView(session).body(Map.of("powerState", "On", "powerControl", "MomentaryPress"))
                .put("/rest/server-hardware/" + SH1 + "/powerState");
        on.then().statusCode(202);
        awaitTask(session, on.header("Location"), "Completed");
        oneView(session).get("/rest/server-hardware/" + SH1).then().body("powerState", equalTo("On"));
        Response refused = oneView(session).header("If-Match", "*").delete(profileUri);
        refused.then().statusCode(202);
        Map<String, Object> failed = awaitTask(session, refused.header("Location"), "Error");
        assertEquals("SERVER_HARDWARE_POWERED_ON", ((Map<?, ?>) ((List<?>) failed.get("taskErrors")).get(0)).get("errorCode"));
        oneView(session).get("/rest/server-hardware/" + SH1).then().body("serverProfileUri", equalTo(profileUri));

        Response off = oneView(session).body(Map.of("powerState", "Off", "powerControl", "PressAndHold"))
                .put("/rest/server-hardware/" + SH1 + "/powerState");
        awaitTask(session, off.header("Location"), "Completed");
        String current = oneView(session).get(profileUri).header("ETag");
        Response removed = oneView(session).header("If-Match", current).delete(profileUri);
        removed.then().statusCode(202);
        awaitTask(session, removed.header("Location"), "Completed");
        oneView(session).get("/rest/server-hardware/" + SH1).then().body("serverProfileUri", nullValue())
                .body("state", equalTo("NoProfileApplied"));
        oneView(session).get(profileUri).then().statusCode(404);
        assertTrue(etag != null && !etag.equals(current));
    }

    @Test
    void aOneViewUserTakesAndFreesHardwareThroughTheAdminApi() {
        String session = login();
        String uri = given().contentType("application/json").body(Map.of("name", "SAP HANA prod"))
                .put("/admin/server-hardware/" + SH2 + "/profile").then().statusCode(200)
                .body("name", equalTo("SAP HANA prod")).extract().path("uri");
        oneView(session).get("/rest/server-hardware/" + SH2).then().body("serverProfileUri", equalTo(uri));
        given().put("/admin/server-hardware/" + SH2 + "/profile").then().statusCode(409);
        given().delete("/admin/server-hardware/" + SH2 + "/profile").then().statusCode(204);
        oneView(session).get("/rest/server-hardware/" + SH2).then().body("serverProfileUri", nullValue());
        oneView(session).get(uri).then().statusCode(404);
    }

    @Test
    void injectedFaultsAndTheCallLog() {
        String session = login();
        long since = ((Number) given().get("/admin/calls").then().extract().jsonPath().getList("seq").stream()
                .reduce((a, b) -> b).orElse(0)).longValue();
        given().contentType("application/json").body(Map.of("type", "status", "status", 503, "count", 2,
                "path", "/rest/server-hardware")).post("/admin/faults").then().statusCode(201);
        oneView(session).get("/rest/server-hardware").then().statusCode(503).body("errorCode", equalTo("INJECTED_FAULT"));
        oneView(session).get("/rest/server-hardware").then().statusCode(503);
        oneView(session).get("/rest/server-hardware").then().statusCode(200);

        given().contentType("application/json").body(Map.of("type", "latency", "millis", 300)).post("/admin/faults");
        long start = System.nanoTime();
        oneView(session).get("/rest/version").then().statusCode(200);
        assertTrue(System.nanoTime() - start >= 300_000_000L, "latency applied");

        given().contentType("application/json").body(Map.of("type", "fail-task", "task", "Create",
                "message", "The enclosure is being updated.")).post("/admin/faults");
        Map<String, Object> profile = oneView(session).get("/rest/server-profile-templates/spt-bl460c-ironic/new-profile")
                .then().extract().jsonPath().getMap("");
        profile.put("name", "doomed");
        profile.put("serverHardwareUri", "/rest/server-hardware/" + SH3);
        Response created = oneView(session).body(profile).post("/rest/server-profiles");
        Map<String, Object> task = awaitTask(session, created.header("Location"), "Error");
        assertEquals("The enclosure is being updated.", ((Map<?, ?>) ((List<?>) task.get("taskErrors")).get(0)).get("message"));
        oneView(session).get("/rest/server-hardware/" + SH3).then().body("serverProfileUri", nullValue());

        given().contentType("application/json").body(Map.of("type", "nonsense")).post("/admin/faults").then().statusCode(400);
        given().get("/admin/calls?since=" + since).then().statusCode(200)
                .body("findAll { it.status == 503 }.path", hasItem("/rest/server-hardware"))
                .body("findAll { it.method == 'POST' && it.path == '/rest/server-profiles' }", hasSize(1));
    }
}
