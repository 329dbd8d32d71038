package io.ironflow.oneview;

import static io.restassured.RestAssured.given;

import io.restassured.path.json.JsonPath;
import io.restassured.specification.RequestSpecification;
import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.config.ConfigProvider;

/** The simulator as a test sees it: its admin API (a OneView user, faults, the call log) and OneView's own API. */
public final class OneViewAdmin {

    private OneViewAdmin() {
    }

    public static String url() {
        return ConfigProvider.getConfig().getValue("ironflow.oneview.url", String.class);
    }

    public static String hardwareUri(int generatedBay) {
        return String.format("/rest/server-hardware/9e000000-0000-4000-8000-%012d", generatedBay);
    }

    public static String takeAsOneViewUser(String hardwareUri, String profileName) {
        return given().baseUri(url()).contentType("application/json").body(Map.of("name", profileName))
                .put("/admin" + hardwareUri.substring("/rest".length()) + "/profile").then().statusCode(200)
                .extract().path("uri");
    }

    public static void freeAsOneViewUser(String hardwareUri) {
        given().baseUri(url()).delete("/admin" + hardwareUri.substring("/rest".length()) + "/profile").then().statusCode(204);
    }

    public static void fault(Map<String, Object> spec) {
        given().baseUri(url()).contentType("application/json").body(spec).post("/admin/faults").then().statusCode(201);
    }

    public static void clearFaults() {
        given().baseUri(url()).delete("/admin/faults").then().statusCode(204);
    }

    public static long lastCall() {
        List<Integer> seqs = given().baseUri(url()).get("/admin/calls").then().extract().jsonPath().getList("seq");
        return seqs.isEmpty() ? 0 : seqs.get(seqs.size() - 1);
    }

    public static List<Map<String, Object>> callsSince(long seq) {
        return given().baseUri(url()).get("/admin/calls?since=" + seq).then().statusCode(200).extract().jsonPath().getList("");
    }

    /** OneView's own API, logged in as the simulator's administrator. */
    public static RequestSpecification oneView() {
        String session = given().baseUri(url()).header("X-API-Version", 800).contentType("application/json")
                .body(Map.of("userName", "administrator", "password", "ironflow")).post("/rest/login-sessions")
                .then().statusCode(200).extract().path("sessionID");
        return given().baseUri(url()).header("X-API-Version", 800).header("auth", session);
    }

    public static JsonPath get(String uri) {
        return oneView().get(uri).then().statusCode(200).extract().jsonPath();
    }
}
