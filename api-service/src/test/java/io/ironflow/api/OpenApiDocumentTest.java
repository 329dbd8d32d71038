package io.ironflow.api;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ironflow.api.openapi.IronicContract;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * docs/openapi.yaml is the document the API serves at /q/openapi, never written by hand. Run with
 * {@code -Dironflow.write-docs=true} to rewrite it after changing an endpoint. It is a contract: every operation
 * has its success status and schemas (openapi/IronicContract), and real answers of the API (real PostgreSQL and
 * Kafka, node rows as the conductor writes them) match the schemas it documents.
 */
@QuarkusTest
class OpenApiDocumentTest extends WithFakeConductor {

    private static final Path DOCUMENT = Path.of("..", "docs", "openapi.yaml");
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Set<String> VERBS = Set.of("get", "put", "post", "patch", "delete");

    @Test
    void docsOpenapiYamlIsWhatTheApiServes() throws IOException {
        String served = given().get("/q/openapi").then().statusCode(200).extract().asString();
        if (Boolean.getBoolean("ironflow.write-docs")) {
            Files.writeString(DOCUMENT, served);
        }
        assertEquals(served, Files.exists(DOCUMENT) ? Files.readString(DOCUMENT) : "",
                "docs/openapi.yaml is stale: run ./mvnw -pl api-service verify -Dtest=OpenApiDocumentTest -Dironflow.write-docs=true");
    }

    @Test
    void everyOperationHasItsContract() throws IOException {
        JsonNode paths = OpenApiSchemas.parse(given().get("/q/openapi").then().statusCode(200).extract().asString())
                .document().get("paths");
        Set<String> documented = new TreeSet<>();
        paths.fields().forEachRemaining(path -> path.getValue().fieldNames().forEachRemaining(verb -> {
            if (VERBS.contains(verb)) {
                documented.add(verb.toUpperCase() + " " + path.getKey());
            }
        }));
        assertEquals(new TreeSet<>(IronicContract.operations()), documented, "openapi/IronicContract must describe every operation");
        JsonNode create = paths.at("/~1v1~1nodes/post");
        assertTrue(create.at("/responses/201").has("content"), "POST /v1/nodes answers 201 with the node");
        assertTrue(create.at("/responses/200").isMissingNode(), create.toString());
        assertEquals("#/components/schemas/NodeCreate", create.at("/requestBody/content/application~1json/schema/$ref").asText());
        assertEquals("#/components/schemas/Error", create.at("/responses/400/content/application~1json/schema/$ref").asText());
        assertTrue(create.at("/responses/201/headers").has("X-OpenStack-Ironic-API-Version"));
        assertTrue(paths.at("/~1v1~1nodes~1{ident}~1states~1provision/put/responses/202").isObject());
        List<String> parameters = paths.at("/~1v1~1nodes/get/parameters").findValuesAsText("name");
        assertTrue(parameters.containsAll(List.of("limit", "marker", "shard", "retired")), parameters.toString());
    }

    @Test
    void realAnswersMatchTheDocumentedSchemas() throws Exception {
        // The served document, which the first test proves is docs/openapi.yaml.
        OpenApiSchemas schemas = OpenApiSchemas.parse(given().get("/q/openapi").then().statusCode(200).extract().asString());
        String uuid = NodeTable.insert(jdbcUrl, NodeTable.Row.named("oa-" + UUID.randomUUID()));
        NodeTable.execute(jdbcUrl, "UPDATE nodes SET traits = '{CUSTOM_A}', shard = 's1', driver_internal_info ="
                + " '{\"fake_hardware\": {\"bios_settings\": {\"A\": \"1\"}, \"inventory\": {\"cpu\": {\"count\": 1},"
                + " \"memory\": {\"physical_mb\": 1024}, \"disks\": [], \"interfaces\": [], \"bmc_address\": \"0.0.0.0\"},"
                + " \"plugin_data\": {\"macs\": []}}}' WHERE uuid = ?", UUID.fromString(uuid));
        NodeTable.execute(jdbcUrl, "INSERT INTO node_history (event_id, node_uuid, created_at, severity, event_type, event,"
                + " conductor, requester, intent_id, from_state, to_state, transition) VALUES (?, ?, now(), 'INFO',"
                + " 'provisioning', 'Node created in enroll (create), intent i.', 'c1', 'anonymous', 'i', NULL, 'enroll',"
                + " 'create')", UUID.randomUUID(), UUID.fromString(uuid));
        String portgroup = UUID.randomUUID().toString();
        NodeTable.execute(jdbcUrl, "INSERT INTO portgroups (uuid, name, node_uuid, mode, created_at) VALUES"
                + " (?, ?, ?, 'active-backup', now())", UUID.fromString(portgroup), "pg-" + portgroup, UUID.fromString(uuid));
        String port = UUID.randomUUID().toString();
        NodeTable.execute(jdbcUrl, "INSERT INTO ports (uuid, address, node_uuid, created_at, internal_info, portgroup_uuid)"
                + " VALUES (?, ?, ?, now(), '{\"tenant_vif_port_id\": \"v1\"}', ?)", UUID.fromString(port),
                "52:54:00:" + port.substring(0, 2) + ":" + port.substring(2, 4) + ":" + port.substring(4, 6), UUID.fromString(uuid),
                UUID.fromString(portgroup));
        List<String[]> reads = List.of(
                new String[] {"/v1/ports", "/v1/ports"}, new String[] {"/v1/ports/detail", "/v1/ports/detail"},
                new String[] {"/v1/ports/{uuid}", "/v1/ports/" + port},
                new String[] {"/v1/nodes/{ident}/ports", "/v1/nodes/" + uuid + "/ports"},
                new String[] {"/v1/nodes/{ident}/ports/detail", "/v1/nodes/" + uuid + "/ports/detail"},
                new String[] {"/v1/nodes/{ident}/vifs", "/v1/nodes/" + uuid + "/vifs"},
                new String[] {"/v1/portgroups", "/v1/portgroups"}, new String[] {"/v1/portgroups/detail", "/v1/portgroups/detail"},
                new String[] {"/v1/portgroups/{ident}", "/v1/portgroups/" + portgroup},
                new String[] {"/v1/portgroups/{ident}/ports", "/v1/portgroups/" + portgroup + "/ports"},
                new String[] {"/v1/portgroups/{ident}/ports/detail", "/v1/portgroups/" + portgroup + "/ports/detail"},
                new String[] {"/v1/nodes/{ident}/portgroups", "/v1/nodes/" + uuid + "/portgroups"},
                new String[] {"/v1/nodes/{ident}/portgroups/detail", "/v1/nodes/" + uuid + "/portgroups/detail"},
                new String[] {"/", "/"}, new String[] {"/v1", "/v1"},
                new String[] {"/v1/nodes", "/v1/nodes"}, new String[] {"/v1/nodes/detail", "/v1/nodes/detail"},
                new String[] {"/v1/nodes/{ident}", "/v1/nodes/" + uuid},
                new String[] {"/v1/nodes/{ident}/states", "/v1/nodes/" + uuid + "/states"},
                new String[] {"/v1/nodes/{ident}/traits", "/v1/nodes/" + uuid + "/traits"},
                new String[] {"/v1/nodes/{ident}/bios", "/v1/nodes/" + uuid + "/bios?detail=True"},
                new String[] {"/v1/nodes/{ident}/bios/{setting}", "/v1/nodes/" + uuid + "/bios/A"},
                new String[] {"/v1/nodes/{ident}/inventory", "/v1/nodes/" + uuid + "/inventory"},
                new String[] {"/v1/nodes/{ident}/history", "/v1/nodes/" + uuid + "/history"},
                new String[] {"/v1/nodes/{ident}/history/detail", "/v1/nodes/" + uuid + "/history/detail"},
                new String[] {"/v1/shards", "/v1/shards"},
                new String[] {"/v1/drivers", "/v1/drivers?detail=True"});
        for (String[] read : reads) {
            Response response = Api.latest().get(read[1]);
            assertEquals(200, response.statusCode(), read[1] + ": " + response.asString());
            JsonNode schema = schemas.responseSchema("GET", read[0], 200);
            assertEquals(List.of(), schemas.mismatches(JSON.readTree(response.asString()), schema), read[1]);
        }
        Response missing = Api.latest().get("/v1/nodes/" + UUID.randomUUID());
        assertEquals(List.of(), schemas.mismatches(JSON.readTree(missing.asString()),
                schemas.responseSchema("GET", "/v1/nodes/{ident}", 404)));
        assertNull(schemas.responseSchema("DELETE", "/v1/nodes/{ident}", 204), "204 has no body");
    }
}
