package io.ironflow.api;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Ironic's API v1 envelope and node listing on a real PostgreSQL: version documents, the microversion
 * handshake and its gating of fields, parameters and verbs, list filters, fields, sorting and keyset paging.
 */
@QuarkusTest
class ApiCompatibilityTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @ConfigProperty(name = "quarkus.datasource.jdbc.url")
    String jdbcUrl;

    @BeforeEach
    void table() {
        NodeTable.migrate(jdbcUrl);
    }

    // ---- versions

    @Test
    void versionDocumentsNameTheServedRange() throws Exception {
        Response root = given().get("/");
        assertEquals(200, root.statusCode());
        JsonNode doc = JSON.readTree(root.asString());
        assertEquals("v1", doc.at("/default_version/id").asText());
        assertEquals("1.1", doc.at("/default_version/min_version").asText());
        assertEquals("1.82", doc.at("/default_version/version").asText());
        assertEquals("CURRENT", doc.at("/versions/0/status").asText());

        for (String path : List.of("/v1", "/v1/")) {
            Response v1 = given().get(path);
            assertEquals(200, v1.statusCode(), path);
            JsonNode body = JSON.readTree(v1.asString());
            // gophercloud reads exactly these four
            assertEquals("v1", body.at("/version/id").asText());
            assertEquals("CURRENT", body.at("/version/status").asText());
            assertEquals("1.1", body.at("/version/min_version").asText());
            assertEquals("1.82", body.at("/version/version").asText());
            assertTrue(body.at("/nodes/0/href").asText().endsWith("/v1/nodes/"));
            assertEquals("1.1", v1.header("X-OpenStack-Ironic-API-Minimum-Version"));
            assertEquals("1.82", v1.header("X-OpenStack-Ironic-API-Maximum-Version"));
        }
    }

    @Test
    void everyResponseCarriesTheVersionHeadersAndNoHeaderMeansOnePointOne() {
        String uuid = NodeTable.insert(jdbcUrl, NodeTable.Row.named("v-" + UUID.randomUUID()));
        Response old = given().header("X-Auth-Token", "notused").get("/v1/nodes/" + uuid);
        assertEquals(200, old.statusCode());
        assertEquals("1.1", old.header("X-OpenStack-Ironic-API-Version"));
        assertNull(old.path("name"), "name came with 1.5");
        assertNull(old.path("retired"), "retired came with 1.61");
        assertEquals("enroll", old.path("provision_state"));

        Response latest = Api.latest().get("/v1/nodes/" + uuid);
        assertEquals("1.82", latest.header("X-OpenStack-Ironic-API-Version"));
        assertEquals(Boolean.FALSE, latest.path("retired"));
        assertTrue(latest.path("name").toString().startsWith("v-"));

        Response standard = given().header("OpenStack-API-Version", "compute 2.1, baremetal 1.61").get("/v1/nodes/" + uuid);
        assertEquals("1.61", standard.header("X-OpenStack-Ironic-API-Version"));
        assertEquals("baremetal 1.61", standard.header("OpenStack-API-Version"));
        assertNull(standard.path("lessee"), "lessee came with 1.65");

        Response missing = Api.latest().get("/v1/no-such-thing");
        assertEquals(404, missing.statusCode());
        assertEquals("1.82", missing.header("X-OpenStack-Ironic-API-Maximum-Version"));
    }

    @Test
    void anUnservedVersionIs406WithTheRange() throws Exception {
        for (String asked : List.of("1.83", "1.0", "2.1", "one.two", "1")) {
            Response response = given().header("X-OpenStack-Ironic-API-Version", asked).get("/v1/nodes");
            assertEquals(406, response.statusCode(), asked);
            assertEquals("1.1", response.header("X-OpenStack-Ironic-API-Minimum-Version"));
            assertEquals("1.82", response.header("X-OpenStack-Ironic-API-Maximum-Version"));
            String fault = JSON.readTree(JSON.readTree(response.asString()).get("error_message").asText())
                    .get("faultstring").asText();
            assertTrue(fault.contains(asked), fault);
        }
        String fault = faultOf(given().header("X-OpenStack-Ironic-API-Version", "1.90").get("/v1/nodes"));
        assertTrue(fault.contains("The supported version range is: [1.1, 1.82]"), fault);
    }

    @Test
    void newerVerbsFieldsAndParametersAre406AtOlderVersions() {
        String uuid = NodeTable.insert(jdbcUrl, NodeTable.Row.named("g-" + UUID.randomUUID()));
        Response manage = given().header("X-OpenStack-Ironic-API-Version", "1.3").contentType("application/json")
                .body("{\"target\": \"manage\"}").put("/v1/nodes/" + uuid + "/states/provision");
        assertEquals(406, manage.statusCode());
        assertTrue(faultOf(manage).contains("1.4"), faultOf(manage));

        Response deploy = given().header("X-OpenStack-Ironic-API-Version", "1.72").contentType("application/json")
                .body("{\"target\": \"undeploy\"}").put("/v1/nodes/" + uuid + "/states/provision");
        assertEquals(406, deploy.statusCode(), "deploy/undeploy names came with 1.73");

        Response create = given().header("X-OpenStack-Ironic-API-Version", "1.64").contentType("application/json")
                .body("{\"driver\": \"fake-hardware\", \"lessee\": \"p\"}").post("/v1/nodes");
        assertEquals(406, create.statusCode());

        Response patch = given().header("X-OpenStack-Ironic-API-Version", "1.60").contentType("application/json")
                .body("[{\"op\": \"replace\", \"path\": \"/retired\", \"value\": true}]").patch("/v1/nodes/" + uuid);
        assertEquals(406, patch.statusCode());

        Response filter = given().header("X-OpenStack-Ironic-API-Version", "1.60").get("/v1/nodes?retired=true");
        assertEquals(406, filter.statusCode());
        Response fields = given().header("X-OpenStack-Ironic-API-Version", "1.60").get("/v1/nodes?fields=uuid,retired");
        assertEquals(406, fields.statusCode(), "a field too new for the version: Ironic's check_allowed_fields");
        assertEquals(406, given().header("X-OpenStack-Ironic-API-Version", "1.60").get("/v1/nodes?sort_key=retired").statusCode(),
                "a sort key too new for the version");
        assertEquals(406, given().header("X-OpenStack-Ironic-API-Version", "1.60").get("/v1/nodes/" + uuid + "?fields=retired")
                .statusCode(), "the same on a show");
        assertEquals(406, given().header("X-OpenStack-Ironic-API-Version", "1.7").get("/v1/nodes/" + uuid + "?fields=uuid")
                .statusCode(), "fields itself came with 1.8");
        assertEquals(404, given().header("X-OpenStack-Ironic-API-Version", "1.7").get("/v1/nodes/" + UUID.randomUUID()
                + "?fields=uuid").statusCode(), "the node is looked for first");
        assertEquals(200, given().header("X-OpenStack-Ironic-API-Version", "1.61").get("/v1/nodes?sort_key=retired").statusCode());
        assertEquals("enroll", Api.latest().get("/v1/nodes/" + uuid).path("provision_state"), "nothing changed");
    }

    // ---- listing

    @Test
    void filtersSelectTheNodesOperatorsAskFor() {
        String owner = "owner-" + UUID.randomUUID();
        String plain = node(owner, "plain");
        String retired = node(owner, "retired");
        NodeTable.set(jdbcUrl, retired, "retired", true);
        String maintained = node(owner, "maintained");
        NodeTable.set(jdbcUrl, maintained, "maintenance", true);
        String manageable = node(owner, "manageable");
        NodeTable.set(jdbcUrl, manageable, "provision_state", "manageable");
        NodeTable.set(jdbcUrl, manageable, "lessee", "tenant-a");
        NodeTable.set(jdbcUrl, manageable, "description", "rack-12 slot-4");
        NodeTable.set(jdbcUrl, manageable, "resource_class", "gold");
        String associated = node(owner, "associated");
        NodeTable.set(jdbcUrl, associated, "instance_uuid", UUID.randomUUID());

        assertEquals(List.of(plain, retired, maintained, manageable, associated), uuids("owner=" + owner));
        assertEquals(List.of(retired), uuids("owner=" + owner + "&retired=True"));
        assertEquals(List.of(plain, maintained, manageable, associated), uuids("owner=" + owner + "&retired=false"));
        assertEquals(List.of(maintained), uuids("owner=" + owner + "&maintenance=true"));
        assertEquals(List.of(manageable), uuids("owner=" + owner + "&provision_state=manageable"));
        assertEquals(List.of(manageable), uuids("owner=" + owner + "&lessee=tenant-a"));
        assertEquals(List.of(manageable), uuids("owner=" + owner + "&resource_class=gold"));
        assertEquals(List.of(manageable), uuids("owner=" + owner + "&description_contains=slot-4"));
        assertEquals(List.of(associated), uuids("owner=" + owner + "&associated=yes"));
        assertEquals(List.of(plain, retired, maintained, manageable, associated),
                uuids("owner=" + owner + "&driver=fake-hardware&conductor_group="));
        assertEquals(List.of(), uuids("owner=" + owner + "&fault=power_failure"));
        assertEquals(List.of(), uuids("owner=" + owner + "&driver=ipmi"));

        assertEquals(400, Api.latest().get("/v1/nodes?maintenance=perhaps").statusCode());
        assertEquals(400, Api.latest().get("/v1/nodes?chassis_uuid=" + UUID.randomUUID()).statusCode());
    }

    @Test
    void fieldsDetailAndTheDefaultSummary() throws Exception {
        String owner = "owner-" + UUID.randomUUID();
        String uuid = node(owner, "shown");
        JsonNode summary = list("owner=" + owner).get(0);
        assertEquals(List.of("instance_uuid", "maintenance", "power_state", "provision_state", "uuid", "name", "links"),
                names(summary));
        JsonNode some = list("owner=" + owner + "&fields=uuid,retired,owner").get(0);
        assertEquals(List.of("uuid", "retired", "owner", "links"), names(some));
        JsonNode detail = list("owner=" + owner + "&detail=True").get(0);
        assertEquals(owner, detail.get("owner").asText());
        assertTrue(detail.has("driver_info") && detail.has("retired_reason") && detail.has("lessee"));
        JsonNode detailPath = JSON.readTree(Api.latest().get("/v1/nodes/detail?owner=" + owner).asString()).get("nodes").get(0);
        assertEquals(names(detail), names(detailPath));
        assertEquals(uuid, detailPath.get("uuid").asText());

        assertEquals(400, Api.latest().get("/v1/nodes?fields=uuid,bogus").statusCode());
        assertEquals(400, Api.latest().get("/v1/nodes?fields=uuid&detail=True").statusCode());
        JsonNode shown = JSON.readTree(Api.latest().get("/v1/nodes/" + uuid + "?fields=name,provision_state").asString());
        assertEquals(List.of("name", "provision_state", "links"), names(shown));
    }

    @Test
    void pagesFollowNextAndSortingIsStable() throws Exception {
        String owner = "owner-" + UUID.randomUUID();
        List<String> created = new ArrayList<>();
        for (String name : List.of("c", "a", "e", "b", "d")) {
            created.add(node(owner, name));
        }
        // default order: creation (Ironic's id); pages of two with a next link on every full page
        List<String> seen = new ArrayList<>();
        String next = "/v1/nodes?owner=" + owner + "&limit=2";
        int pages = 0;
        while (next != null) {
            JsonNode page = JSON.readTree(Api.latest().get(next).asString());
            page.get("nodes").forEach(n -> seen.add(n.get("uuid").asText()));
            next = page.has("next") ? page.get("next").asText().replaceFirst("^https?://[^/]+", "") : null;
            if (page.has("next")) {
                assertEquals(page.get("next").asText(), page.at("/nodes_links/0/href").asText());
            }
            pages++;
        }
        assertEquals(created, seen);
        assertEquals(3, pages, "2 + 2 + 1: the last, short page has no next");

        List<String> byNameDesc = new ArrayList<>();
        next = "/v1/nodes?owner=" + owner + "&limit=2&sort_key=name&sort_dir=desc";
        while (next != null) {
            JsonNode page = JSON.readTree(Api.latest().get(next).asString());
            page.get("nodes").forEach(n -> byNameDesc.add(n.get("name").asText()));
            next = page.has("next") ? page.get("next").asText().replaceFirst("^https?://[^/]+", "") : null;
        }
        assertEquals(List.of("e", "d", "c", "b", "a"), byNameDesc.stream().map(n -> n.substring(n.length() - 1)).toList());

        assertEquals(400, Api.latest().get("/v1/nodes?sort_key=driver_info").statusCode());
        assertEquals(400, Api.latest().get("/v1/nodes?sort_dir=sideways").statusCode());
        assertEquals(400, Api.latest().get("/v1/nodes?limit=0").statusCode());
        assertEquals(400, Api.latest().get("/v1/nodes?marker=not-a-uuid").statusCode());
    }

    private String node(String owner, String name) {
        String uuid = NodeTable.insert(jdbcUrl, NodeTable.Row.named(owner + "-" + name));
        NodeTable.set(jdbcUrl, uuid, "owner", owner);
        return uuid;
    }

    private static List<String> uuids(String query) {
        return list(query).stream().map(n -> n.get("uuid").asText()).toList();
    }

    private static List<JsonNode> list(String query) {
        Response response = Api.latest().get("/v1/nodes?" + query);
        assertEquals(200, response.statusCode(), response.asString());
        try {
            List<JsonNode> nodes = new ArrayList<>();
            JSON.readTree(response.asString()).get("nodes").forEach(nodes::add);
            return nodes;
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    private static List<String> names(JsonNode node) {
        List<String> names = new ArrayList<>();
        node.fieldNames().forEachRemaining(names::add);
        return names;
    }

    private static String faultOf(Response response) {
        try {
            return JSON.readTree(JSON.readTree(response.asString()).get("error_message").asText()).get("faultstring").asText();
        } catch (Exception e) {
            throw new AssertionError(response.asString(), e);
        }
    }
}
