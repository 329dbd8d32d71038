package io.ironflow.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ironflow.events.AttachVif;
import io.ironflow.events.CreatePort;
import io.ironflow.events.DeletePort;
import io.ironflow.events.DetachVif;
import io.ironflow.events.NodeIntent;
import io.ironflow.events.NodeSnapshot;
import io.ironflow.events.PortSnapshot;
import io.ironflow.events.UpdatePort;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Ports ({@code /v1/ports}, {@code /v1/nodes/{ident}/ports}) and VIFs ({@code /v1/nodes/{ident}/vifs}) on real
 * Kafka, registry and PostgreSQL with {@link FakeConductor} in the conductor's place: writes are intents keyed by
 * the port's node, reads come from the ports table with Ironic's filters, pages and shapes.
 */
@QuarkusTest
class PortsApiTest extends WithFakeConductor {

    @Test
    void createSendsAnIntentKeyedByTheNodeAndAnswersThePort() {
        String node = node();
        conductor.answer(node, intent -> {
            CreatePort create = (CreatePort) intent.getCommand();
            return FakeConductor.accepted(intent, 201, snapshot(node, port(create.getPortUuid(), create.getAddress(), "{}")));
        });
        Response created = Api.latest().contentType("application/json").body("{\"address\": \"52:54:00:aa:bb:01\","
                + " \"node_uuid\": \"" + node + "\", \"pxe_enabled\": true, \"local_link_connection\": {\"switch_id\": \"s\"}}")
                .post("/v1/ports");
        assertEquals(201, created.statusCode(), created.asString());
        String uuid = created.path("uuid");
        assertTrue(created.header("Location").endsWith("/v1/ports/" + uuid));
        assertEquals(node, created.path("node_uuid"));
        assertEquals("52:54:00:aa:bb:01", created.path("address"));
        CreatePort sent = (CreatePort) single(node).getCommand();
        assertEquals("{\"switch_id\":\"s\"}", sent.getLocalLinkConnection());
        assertEquals(Boolean.TRUE, sent.getPxeEnabled());

        assertEquals(400, Api.latest().contentType("application/json").body("{\"node_uuid\": \"" + node + "\"}").post("/v1/ports").statusCode());
        assertEquals(400, Api.latest().contentType("application/json").body("{\"address\": \"a\", \"node_uuid\": \"" + node
                + "\", \"bogus\": 1}").post("/v1/ports").statusCode());
        // Ironic: a node the port's body names that is not there is 400 (NodeNotFound with BAD_REQUEST)
        assertEquals(400, Api.latest().contentType("application/json").body("{\"address\": \"52:54:00:aa:bb:02\","
                + " \"node_uuid\": \"" + UUID.randomUUID() + "\"}").post("/v1/ports").statusCode());
        assertEquals(400, Api.latest().contentType("application/json").body("{\"address\": \"52:54:00:aa:bb:02\","
                + " \"node_uuid\": \"" + node + "\", \"pxe_enabled\": \"maybe\"}").post("/v1/ports").statusCode());
        assertEquals(1, conductor.intentsFor(node).size(), "refusals send nothing");

        // openstack baremetal port create --pxe-enabled false sends the text, which Ironic's args.boolean reads
        Response text = Api.latest().contentType("application/json").body("{\"address\": \"52:54:00:aa:bb:03\","
                + " \"node_uuid\": \"" + node + "\", \"pxe_enabled\": \"false\"}").post("/v1/ports");
        assertEquals(201, text.statusCode(), text.asString());
        assertEquals(Boolean.FALSE, ((CreatePort) conductor.intentsFor(node).get(1).getCommand()).getPxeEnabled());
    }

    /**
     * The port was made and its answer recorded, but the result did not reach the API in time: the answer read
     * from processed_intents carries the node's ports from the ports table, so the new port is rendered (201).
     */
    @Test
    void aCreateWhoseAnswerIsLateIsAnsweredWithThePortFromTheTables() {
        String node = node();
        conductor.answer(node, intent -> {
            CreatePort create = (CreatePort) intent.getCommand();
            NodeTable.execute(jdbcUrl, "INSERT INTO ports (uuid, address, node_uuid, created_at) VALUES (?, ?, ?, ?)",
                    UUID.fromString(create.getPortUuid()), create.getAddress(), UUID.fromString(node), Timestamp.from(Instant.now()));
            NodeTable.recordAnswer(jdbcUrl, intent.getIntentId(), node, true, 201, null);
            return null; // no result published
        });
        Response created = Api.latest().contentType("application/json").body("{\"address\": \"52:54:00:aa:cc:01\","
                + " \"node_uuid\": \"" + node + "\"}").post("/v1/ports");
        assertEquals(201, created.statusCode(), created.asString());
        assertEquals("52:54:00:aa:cc:01", created.path("address"));
    }

    @Test
    void listShowFilterAndPageFromThePortsTable() {
        String node = node();
        List<String> ports = List.of(row(node, "52:54:00:00:00:a1"), row(node, "52:54:00:00:00:a2"), row(node, "52:54:00:00:00:a3"));
        Response list = Api.latest().get("/v1/nodes/" + node + "/ports");
        assertEquals(200, list.statusCode(), list.asString());
        assertEquals(ports, list.path("ports.uuid"));
        assertEquals(List.of("uuid", "address", "links"), List.copyOf(((java.util.Map<?, ?>) list.path("ports[0]")).keySet()));
        Response detail = Api.latest().get("/v1/ports/detail?node=" + node);
        assertEquals(node, detail.path("ports[0].node_uuid"));
        assertEquals(Boolean.TRUE, detail.path("ports[0].pxe_enabled"));

        Response page = Api.latest().get("/v1/ports?node_uuid=" + node + "&limit=2");
        assertEquals(ports.subList(0, 2), page.path("ports.uuid"));
        String next = page.path("next");
        assertTrue(next.contains("marker=" + ports.get(1)), next);
        assertEquals(ports.subList(2, 3), Api.latest().get("/v1/ports?node_uuid=" + node + "&limit=2&marker=" + ports.get(1))
                .path("ports.uuid"));
        assertEquals(List.of(ports.get(1)), Api.latest().get("/v1/ports?address=52:54:00:00:00:A2").path("ports.uuid"));
        assertEquals(ports, Api.latest().get("/v1/ports?node_uuid=" + node + "&node=" + UUID.randomUUID()).path("ports.uuid"),
                "node_uuid first, as Ironic's node_uuid or node");
        // 1.82: the ports of nodes in the shards named
        String shard = "rack-" + UUID.randomUUID().toString().substring(0, 8);
        NodeTable.execute(jdbcUrl, "UPDATE nodes SET shard = ? WHERE uuid = ?", shard, UUID.fromString(node));
        assertEquals(ports, Api.latest().get("/v1/ports?shard=other," + shard).path("ports.uuid"));
        assertEquals(List.of(), Api.latest().get("/v1/ports?shard=other").path("ports.uuid"));
        assertEquals(406, io.restassured.RestAssured.given().header(Api.VERSION_HEADER, "1.81").get("/v1/ports?shard=" + shard)
                .statusCode());
        assertEquals(400, Api.latest().get("/v1/ports?shard=,").statusCode());
        // openstack baremetal port list --sort address:desc, paged: the marker's place in that order
        Response sorted = Api.latest().get("/v1/ports?node_uuid=" + node + "&sort_key=address&sort_dir=desc&limit=2");
        assertEquals(List.of(ports.get(2), ports.get(1)), sorted.path("ports.uuid"));
        assertEquals(List.of(ports.get(0)), Api.latest().get("/v1/ports?node_uuid=" + node
                + "&sort_key=address&sort_dir=desc&limit=2&marker=" + ports.get(1)).path("ports.uuid"));
        assertEquals(400, Api.latest().get("/v1/ports?sort_key=extra").statusCode(), "a dictionary is not sortable");
        // a marker deleted since the last page is Ironic's 404, not an empty page that reads as the list's end
        Response gone = Api.latest().get("/v1/ports?node_uuid=" + node + "&limit=2&marker=" + UUID.randomUUID());
        assertEquals(404, gone.statusCode(), gone.asString());
        assertTrue(gone.asString().contains("could not be found"), gone.asString());
        Response some = Api.latest().get("/v1/ports/" + ports.get(0) + "?fields=uuid,address");
        assertEquals(List.of("uuid", "address", "links"), List.copyOf(((java.util.Map<?, ?>) some.as(java.util.Map.class)).keySet()));
        assertEquals(400, Api.latest().get("/v1/ports/" + ports.get(0) + "?fields=bogus").statusCode());
        assertEquals("52:54:00:00:00:a3", Api.latest().get("/v1/ports/" + ports.get(2)).path("address"));
        assertEquals(404, Api.latest().get("/v1/ports/" + UUID.randomUUID()).statusCode());
        assertEquals(400, Api.latest().get("/v1/ports?bogus=1").statusCode());
        Response old = io.restassured.RestAssured.given().header(Api.VERSION_HEADER, "1.18").get("/v1/ports/" + ports.get(0));
        assertNull(old.path("pxe_enabled"), "pxe_enabled came with 1.19");
    }

    @Test
    void patchAndDeleteGoToThePortsNode() {
        String node = node();
        String port = row(node, "52:54:00:00:01:01");
        conductor.answer(node, intent -> FakeConductor.accepted(intent, intent.getCommand() instanceof DeletePort ? 204 : 200,
                snapshot(node, port(port, "52:54:00:00:01:01", "{}"))));
        Response patched = Api.latest().contentType("application/json")
                .body("[{\"op\": \"add\", \"path\": \"/extra/a\", \"value\": 1}]").patch("/v1/ports/" + port);
        assertEquals(200, patched.statusCode(), patched.asString());
        assertEquals(port, patched.path("uuid"));
        // The same port by its uuid in upper case: answered from the stored uuid, not a 500 after the change
        Response upper = Api.latest().contentType("application/json")
                .body("[{\"op\": \"add\", \"path\": \"/extra/b\", \"value\": 2}]").patch("/v1/ports/" + port.toUpperCase());
        assertEquals(200, upper.statusCode(), upper.asString());
        assertEquals(port, upper.path("uuid"));
        assertEquals(204, Api.latest().delete("/v1/ports/" + port).statusCode());
        List<NodeIntent> sent = conductor.intentsFor(node);
        assertEquals(port, ((UpdatePort) sent.get(0).getCommand()).getPortUuid());
        assertEquals(port, ((UpdatePort) sent.get(1).getCommand()).getPortUuid());
        assertEquals(port, ((DeletePort) sent.get(2).getCommand()).getPortUuid());
        assertEquals(400, Api.latest().contentType("application/json").body("[{\"op\": \"replace\", \"path\": \"/node_uuid\","
                + " \"value\": \"" + UUID.randomUUID() + "\"}]").patch("/v1/ports/" + port).statusCode());
    }

    @Test
    void vifsAreAttachedByIntentAndListedFromThePorts() {
        String node = node();
        String port = row(node, "52:54:00:00:02:01");
        NodeTable.execute(jdbcUrl, "UPDATE ports SET internal_info = '{\"tenant_vif_port_id\": \"vif-9\"}' WHERE uuid = ?",
                UUID.fromString(port));
        Response vifs = Api.latest().get("/v1/nodes/" + node + "/vifs");
        assertEquals(200, vifs.statusCode(), vifs.asString());
        assertEquals(List.of("vif-9"), vifs.path("vifs.id"));

        conductor.answer(node, intent -> FakeConductor.accepted(intent, 204, snapshot(node)));
        assertEquals(204, Api.latest().contentType("application/json").body("{\"id\": \"vif-10\"}")
                .post("/v1/nodes/" + node + "/vifs").statusCode());
        assertEquals(204, Api.latest().delete("/v1/nodes/" + node + "/vifs/vif-9").statusCode());
        List<NodeIntent> sent = conductor.intentsFor(node);
        assertEquals("vif-10", ((AttachVif) sent.get(0).getCommand()).getVifId());
        assertEquals("vif-9", ((DetachVif) sent.get(1).getCommand()).getVifId());
        assertEquals(400, Api.latest().contentType("application/json").body("{\"id\": \"v\", \"port_uuid\": \"x\"}")
                .post("/v1/nodes/" + node + "/vifs").statusCode());
        assertEquals(404, io.restassured.RestAssured.given().header(Api.VERSION_HEADER, "1.27")
                .get("/v1/nodes/" + node + "/vifs").statusCode());
        assertEquals(2, conductor.intentsFor(node).size());
        // openstack baremetal node vif attach --vif-info vnic=direct: other members are taken, as Ironic's schema allows
        assertEquals(204, Api.latest().contentType("application/json").body("{\"id\": \"vif-11\", \"vnic\": \"direct\"}")
                .post("/v1/nodes/" + node + "/vifs").statusCode());
        assertEquals("vif-11", ((AttachVif) conductor.intentsFor(node).get(2).getCommand()).getVifId());
    }

    private String node() {
        return NodeTable.insert(jdbcUrl, NodeTable.Row.named(null));
    }

    /** A port row as the conductor writes one. */
    private String row(String node, String mac) {
        String uuid = UUID.randomUUID().toString();
        NodeTable.execute(jdbcUrl, "INSERT INTO ports (uuid, address, node_uuid, created_at) VALUES (?, ?, ?, ?)",
                UUID.fromString(uuid), mac, UUID.fromString(node), Timestamp.from(Instant.now()));
        return uuid;
    }

    private static PortSnapshot port(String uuid, String address, String internalInfo) {
        return PortSnapshot.newBuilder().setUuid(uuid).setAddress(address).setInternalInfo(internalInfo)
                .setCreatedAt(Instant.now()).build();
    }

    private static NodeSnapshot snapshot(String uuid, PortSnapshot... ports) {
        return NodeSnapshot.newBuilder().setUuid(uuid).setRevision(2).setDriver("fake-hardware")
                .setProvisionState("enroll").setCreatedAt(Instant.now()).setPorts(List.of(ports)).build();
    }

    private static NodeIntent single(String node) {
        List<NodeIntent> intents = conductor.intentsFor(node);
        assertEquals(1, intents.size(), intents.toString());
        return intents.get(0);
    }
}
