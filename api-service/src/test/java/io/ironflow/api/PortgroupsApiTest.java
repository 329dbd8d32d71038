package io.ironflow.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ironflow.events.CreatePort;
import io.ironflow.events.CreatePortgroup;
import io.ironflow.events.DeletePortgroup;
import io.ironflow.events.NodeIntent;
import io.ironflow.events.NodeSnapshot;
import io.ironflow.events.PortSnapshot;
import io.ironflow.events.PortgroupSnapshot;
import io.ironflow.events.UpdatePortgroup;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.response.Response;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Portgroups ({@code /v1/portgroups}, {@code /v1/nodes/{ident}/portgroups}, {@code /v1/portgroups/{ident}/ports})
 * on real Kafka, registry and PostgreSQL with {@link FakeConductor} in the conductor's place: writes are intents keyed
 * by the portgroup's node; reads come from the portgroups table with Ironic's filters, version gates and shapes.
 */
@QuarkusTest
class PortgroupsApiTest extends WithFakeConductor {

    @Test
    void createSendsAnIntentKeyedByTheNodeAndAnswersThePortgroup() {
        String node = node();
        conductor.answer(node, intent -> {
            CreatePortgroup create = (CreatePortgroup) intent.getCommand();
            return FakeConductor.accepted(intent, 201, snapshot(node, List.of(), portgroup(create.getPortgroupUuid(),
                    create.getName(), create.getAddress(), create.getMode())));
        });
        Response created = Api.latest().contentType("application/json").body("{\"node_uuid\": \"" + node + "\","
                + " \"name\": \"bond0\", \"address\": \"52:54:00:cc:00:01\", \"mode\": \"802.3ad\","
                + " \"properties\": {\"miimon\": \"100\"}, \"standalone_ports_supported\": \"false\"}").post("/v1/portgroups");
        assertEquals(201, created.statusCode(), created.asString());
        String uuid = created.path("uuid");
        assertTrue(created.header("Location").endsWith("/v1/portgroups/" + uuid));
        assertEquals("bond0", created.path("name"));
        assertEquals("802.3ad", created.path("mode"));
        assertTrue(created.path("ports[0].href").toString().endsWith("/v1/portgroups/" + uuid + "/ports"));
        CreatePortgroup sent = (CreatePortgroup) single(node).getCommand();
        assertEquals("{\"miimon\":\"100\"}", sent.getProperties());
        assertEquals(Boolean.FALSE, sent.getStandalonePortsSupported(), "Ironic's boolean text forms");

        assertEquals(406, RestAssured.given().header(Api.VERSION_HEADER, "1.25").contentType("application/json")
                .body("{\"node_uuid\": \"" + node + "\", \"mode\": \"802.3ad\"}").post("/v1/portgroups").statusCode(),
                "mode came with 1.26");
        assertEquals(404, RestAssured.given().header(Api.VERSION_HEADER, "1.22").contentType("application/json")
                .body("{\"node_uuid\": \"" + node + "\"}").post("/v1/portgroups").statusCode(), "portgroups came with 1.23");
        assertEquals(400, Api.latest().contentType("application/json").body("{\"node_uuid\": \"" + node + "\", \"bogus\": 1}")
                .post("/v1/portgroups").statusCode());
        assertEquals(400, Api.latest().contentType("application/json").body("{\"node_uuid\": \"" + UUID.randomUUID() + "\"}")
                .post("/v1/portgroups").statusCode(), "Ironic: an unknown node in the body is 400");
        assertEquals(1, conductor.intentsFor(node).size(), "refusals send nothing");
    }

    @Test
    void listShowFilterAndGateFromThePortgroupsTable() {
        String node = node();
        String other = node();
        String first = row(node, "pg-a-" + UUID.randomUUID(), "52:54:00:dd:00:01");
        String second = row(node, null, null);
        String elsewhere = row(other, null, "52:54:00:dd:00:03");
        Response list = Api.latest().get("/v1/nodes/" + node + "/portgroups");
        assertEquals(200, list.statusCode(), list.asString());
        assertEquals(List.of(first, second), list.path("portgroups.uuid"));
        assertEquals(List.of("uuid", "address", "name", "links"),
                List.copyOf(((Map<?, ?>) list.path("portgroups[0]")).keySet()));
        Response detail = Api.latest().get("/v1/portgroups/detail?node=" + node);
        assertEquals("active-backup", detail.path("portgroups[0].mode"));
        assertEquals(node, detail.path("portgroups[0].node_uuid"));
        assertEquals(List.of(elsewhere), Api.latest().get("/v1/portgroups?address=52:54:00:DD:00:03").path("portgroups.uuid"));
        Response page = Api.latest().get("/v1/portgroups?node=" + node + "&limit=1");
        assertEquals(List.of(first), page.path("portgroups.uuid"));
        assertTrue(page.path("next").toString().contains("marker=" + first));
        String name = Api.latest().get("/v1/portgroups/" + first).path("name");
        assertEquals(first, Api.latest().get("/v1/portgroups/" + name).path("uuid"), "by name too");
        assertEquals(404, Api.latest().get("/v1/portgroups/" + UUID.randomUUID()).statusCode());
        assertEquals(List.of("uuid", "links"), List.copyOf(((java.util.Map<?, ?>) Api.latest()
                .get("/v1/portgroups/" + first + "?fields=uuid").as(java.util.Map.class)).keySet()), "links whatever the fields");
        assertEquals(404, Api.latest().get("/v1/portgroups?limit=1&marker=" + UUID.randomUUID()).statusCode(), "a marker gone");
        assertEquals(400, Api.latest().get("/v1/portgroups?node=" + node + "&address=52:54:00:dd:00:01").statusCode());
        assertEquals(400, Api.latest().get("/v1/portgroups?bogus=1").statusCode());
        Response old = RestAssured.given().header(Api.VERSION_HEADER, "1.25").get("/v1/portgroups/" + first);
        assertEquals(200, old.statusCode());
        assertNull(old.path("mode"), "mode came with 1.26");
        assertEquals(404, RestAssured.given().header(Api.VERSION_HEADER, "1.23").get("/v1/nodes/" + node + "/portgroups")
                .statusCode(), "a node's portgroups came with 1.24");
        assertEquals(404, RestAssured.given().header(Api.VERSION_HEADER, "1.22").get("/v1/portgroups").statusCode());
    }

    @Test
    void aPortgroupsPortsAndAPortsPortgroup() {
        String node = node();
        String portgroup = row(node, null, null);
        String member = UUID.randomUUID().toString();
        NodeTable.execute(jdbcUrl, "INSERT INTO ports (uuid, address, node_uuid, created_at, portgroup_uuid) VALUES (?, ?, ?, ?, ?)",
                UUID.fromString(member), "52:54:00:ee:00:01", UUID.fromString(node), Timestamp.from(Instant.now()),
                UUID.fromString(portgroup));
        NodeTable.execute(jdbcUrl, "INSERT INTO ports (uuid, address, node_uuid, created_at) VALUES (?, ?, ?, ?)",
                UUID.randomUUID(), "52:54:00:ee:00:02", UUID.fromString(node), Timestamp.from(Instant.now()));
        assertEquals(List.of(member), Api.latest().get("/v1/portgroups/" + portgroup + "/ports").path("ports.uuid"));
        assertEquals(List.of(member), Api.latest().get("/v1/ports?portgroup=" + portgroup).path("ports.uuid"));
        assertEquals(portgroup, Api.latest().get("/v1/ports/" + member).path("portgroup_uuid"));
        assertEquals(404, Api.latest().get("/v1/portgroups/" + UUID.randomUUID() + "/ports").statusCode());

        conductor.answer(node, intent -> FakeConductor.accepted(intent, 201, snapshot(node, List.of(PortSnapshot.newBuilder()
                .setUuid(((CreatePort) intent.getCommand()).getPortUuid()).setAddress("52:54:00:ee:00:03")
                .setPortgroupUuid(portgroup).setCreatedAt(Instant.now()).build()))));
        Response created = Api.latest().contentType("application/json").body("{\"address\": \"52:54:00:ee:00:03\","
                + " \"node_uuid\": \"" + node + "\", \"portgroup_uuid\": \"" + portgroup + "\"}").post("/v1/ports");
        assertEquals(201, created.statusCode(), created.asString());
        assertEquals(portgroup, created.path("portgroup_uuid"));
        assertEquals(portgroup, ((CreatePort) single(node).getCommand()).getPortgroupUuid());
    }

    @Test
    void patchAndDeleteGoToThePortgroupsNode() {
        String node = node();
        String portgroup = row(node, null, null);
        conductor.answer(node, intent -> FakeConductor.accepted(intent, intent.getCommand() instanceof DeletePortgroup ? 204 : 200,
                snapshot(node, List.of(), portgroup(portgroup, "renamed", null, "balance-rr"))));
        Response patched = Api.latest().contentType("application/json")
                .body("[{\"op\": \"replace\", \"path\": \"/name\", \"value\": \"renamed\"}]").patch("/v1/portgroups/" + portgroup);
        assertEquals(200, patched.statusCode(), patched.asString());
        assertEquals("renamed", patched.path("name"));
        assertEquals(204, Api.latest().delete("/v1/portgroups/" + portgroup).statusCode());
        List<NodeIntent> sent = conductor.intentsFor(node);
        assertEquals(portgroup, ((UpdatePortgroup) sent.get(0).getCommand()).getPortgroupUuid());
        assertEquals(portgroup, ((DeletePortgroup) sent.get(1).getCommand()).getPortgroupUuid());
        assertEquals(406, RestAssured.given().header(Api.VERSION_HEADER, "1.25").contentType("application/json")
                .body("[{\"op\": \"replace\", \"path\": \"/mode\", \"value\": \"x\"}]").patch("/v1/portgroups/" + portgroup)
                .statusCode());
        assertEquals(400, Api.latest().contentType("application/json").body("[{\"op\": \"replace\", \"path\": \"/node_uuid\","
                + " \"value\": \"" + UUID.randomUUID() + "\"}]").patch("/v1/portgroups/" + portgroup).statusCode());
        assertEquals(2, conductor.intentsFor(node).size());
    }

    private String node() {
        return NodeTable.insert(jdbcUrl, NodeTable.Row.named(null));
    }

    /** A portgroup row as the conductor writes one. */
    private String row(String node, String name, String mac) {
        String uuid = UUID.randomUUID().toString();
        NodeTable.execute(jdbcUrl, "INSERT INTO portgroups (uuid, name, address, node_uuid, mode, created_at) VALUES"
                + " (?, ?, ?, ?, 'active-backup', ?)", UUID.fromString(uuid), name, mac, UUID.fromString(node),
                Timestamp.from(Instant.now()));
        return uuid;
    }

    private static PortgroupSnapshot portgroup(String uuid, String name, String address, String mode) {
        return PortgroupSnapshot.newBuilder().setUuid(uuid).setName(name).setAddress(address)
                .setMode(mode == null ? "active-backup" : mode).setCreatedAt(Instant.now()).build();
    }

    private static NodeSnapshot snapshot(String uuid, List<PortSnapshot> ports, PortgroupSnapshot... portgroups) {
        return NodeSnapshot.newBuilder().setUuid(uuid).setRevision(2).setDriver("fake-hardware")
                .setProvisionState("enroll").setCreatedAt(Instant.now()).setPorts(ports)
                .setPortgroups(List.of(portgroups)).build();
    }

    private static NodeIntent single(String node) {
        List<NodeIntent> intents = conductor.intentsFor(node);
        assertEquals(1, intents.size(), intents.toString());
        return intents.get(0);
    }
}
