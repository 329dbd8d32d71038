package io.ironflow.api;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ironflow.events.CreatePort;
import io.ironflow.events.CreatePortgroup;
import io.ironflow.events.IntentResult;
import io.ironflow.events.NodeIntent;
import io.ironflow.events.NodeSnapshot;
import io.ironflow.events.PortSnapshot;
import io.ironflow.events.PortgroupSnapshot;
import io.ironflow.events.ValidateNode;
import io.ironflow.policy.HardwareAddresses;
import io.ironflow.policy.IntentRules;
import io.ironflow.policy.NodeOwnership;
import io.ironflow.policy.Persona;
import io.ironflow.policy.Policy;
import io.ironflow.policy.Principal;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.UUID;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The whole RBAC matrix over HTTP: every {@link Persona} (role x scope x relation to the node) on every node
 * endpoint, against the real API on real Kafka and PostgreSQL with jwt authentication. Each answer must be the one
 * io.ironflow.policy decides: a 2xx when allowed, 404 when the caller may not see the node, 403 otherwise; and a
 * refused request sends no intent. Lists show a project only its owned and leased nodes; driver_info is redacted
 * for who may not read it; intents carry the caller. And authentication itself: 401 with a challenge and Ironic's
 * body without a valid token, tokens in either header, the version documents and health open.
 */
@QuarkusTest
@TestProfile(JwtAuthProfile.class)
class RbacMatrixTest extends WithFakeConductor {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Policy POLICY = Policy.defaults();

    /** One endpoint on the matrix node: its method, path under the node, body, and the rules it needs. */
    record Endpoint(String method, String path, String body, Set<String> rules) {
    }

    private static final List<Endpoint> ENDPOINTS = List.of(
            new Endpoint("GET", "", null, Set.of("baremetal:node:get")),
            new Endpoint("GET", "/states", null, Set.of("baremetal:node:get_states")),
            new Endpoint("GET", "/traits", null, Set.of("baremetal:node:traits:list")),
            new Endpoint("GET", "/vifs", null, Set.of("baremetal:node:vif:list")),
            new Endpoint("GET", "/history", null, Set.of("baremetal:node:history:get")),
            new Endpoint("GET", "/bios", null, Set.of("baremetal:node:bios:get")),
            new Endpoint("GET", "/validate", null, Set.of("baremetal:node:validate")),
            new Endpoint("GET", "/cleaning/steps", null, Set.of("baremetal:node:get")),
            new Endpoint("PATCH", "", patch("/description", "\"d\""), Set.of("baremetal:node:update")),
            new Endpoint("PATCH", "", patch("/extra/a", "1"), Set.of("baremetal:node:update_extra")),
            new Endpoint("PATCH", "", patch("/instance_info/a", "1"), Set.of("baremetal:node:update_instance_info")),
            new Endpoint("PATCH", "", patch("/owner", "\"x\""), Set.of("baremetal:node:update:owner")),
            new Endpoint("PATCH", "", patch("/lessee", "\"x\""), Set.of("baremetal:node:update:lessee")),
            new Endpoint("PATCH", "", patch("/driver_info/a", "1"), Set.of("baremetal:node:update:driver_info")),
            new Endpoint("PATCH", "", patch("/driver_info/server_hardware_uri", "\"/rest/server-hardware/theirs\""),
                    Set.of("baremetal:node:update:driver_info", HardwareAddresses.RULE)),
            new Endpoint("PATCH", "", patch("/driver_info/redfish_address", "\"https://10.0.0.9\""),
                    Set.of("baremetal:node:update:driver_info", HardwareAddresses.RULE)),
            new Endpoint("PATCH", "", patch("/retired", "true"), Set.of("baremetal:node:update:retired")),
            new Endpoint("PATCH", "", patch("/name", "\"n\""), Set.of("baremetal:node:update:name")),
            new Endpoint("PUT", "/states/power", "{\"target\": \"power on\"}", Set.of("baremetal:node:set_power_state")),
            new Endpoint("PUT", "/states/provision", "{\"target\": \"manage\"}", Set.of("baremetal:node:set_provision_state")),
            new Endpoint("PUT", "/maintenance", "{\"reason\": \"r\"}", Set.of("baremetal:node:set_maintenance")),
            new Endpoint("DELETE", "/maintenance", null, Set.of("baremetal:node:clear_maintenance")),
            new Endpoint("PUT", "/traits/CUSTOM_A", null, Set.of("baremetal:node:traits:set")),
            new Endpoint("DELETE", "/traits/CUSTOM_A", null, Set.of("baremetal:node:traits:delete")),
            new Endpoint("POST", "/vifs", "{\"id\": \"vif-1\"}", Set.of("baremetal:node:vif:attach")),
            new Endpoint("DELETE", "/vifs/vif-1", null, Set.of("baremetal:node:vif:detach")),
            new Endpoint("DELETE", "", null, Set.of("baremetal:node:delete")));

    private static String node;
    private static String othersNode;

    private static String patch(String path, String value) {
        return "[{\"op\": \"add\", \"path\": \"" + path + "\", \"value\": " + value + "}]";
    }

    private void nodes() {
        if (node == null) {
            node = NodeTable.insert(jdbcUrl, NodeTable.Row.named("matrix-node"));
            NodeTable.set(jdbcUrl, node, "owner", Persona.OWNER_PROJECT);
            NodeTable.set(jdbcUrl, node, "lessee", Persona.LESSEE_PROJECT);
            NodeTable.execute(jdbcUrl, "UPDATE nodes SET driver_info = '{\"ipmi_address\": \"10.0.0.9\"}'::jsonb,"
                    + " last_error = 'boom' WHERE uuid = ?", java.util.UUID.fromString(node));
            othersNode = NodeTable.insert(jdbcUrl, NodeTable.Row.named("others-node"));
            NodeTable.set(jdbcUrl, othersNode, "owner", Persona.OTHER_PROJECT);
            conductor.answerEveryOtherNode(intent -> {
                NodeSnapshot.Builder snapshot = NodeSnapshot.newBuilder()
                        .setUuid(intent.getNodeUuid()).setRevision(2).setDriver("fake-hardware").setProvisionState("enroll")
                        .setOwner(Persona.OWNER_PROJECT).setLessee(Persona.LESSEE_PROJECT).setCreatedAt(Instant.now());
                if (intent.getCommand() instanceof CreatePort port) { // the answer carries what was created
                    snapshot.setPorts(List.of(PortSnapshot.newBuilder().setUuid(port.getPortUuid())
                            .setAddress(port.getAddress()).setCreatedAt(Instant.now()).build()));
                } else if (intent.getCommand() instanceof CreatePortgroup portgroup) {
                    snapshot.setPortgroups(List.of(PortgroupSnapshot.newBuilder().setUuid(portgroup.getPortgroupUuid())
                            .setCreatedAt(Instant.now()).build()));
                }
                IntentResult accepted = FakeConductor.accepted(intent, 202, snapshot.build());
                return intent.getCommand() instanceof ValidateNode
                        ? IntentResult.newBuilder(accepted).setValidation("{}").build() : accepted;
            });
        }
    }

    /** Half the personas send their token as Authorization: Bearer, half as X-Auth-Token (the CLI's token auth). */
    private static RequestSpecification as(Persona persona) {
        String token = JwtAuthProfile.token(persona.principal());
        RequestSpecification request = Api.latest();
        return persona.ordinal() % 2 == 0 ? request.header("Authorization", "Bearer " + token)
                : request.header("X-Auth-Token", token);
    }

    @Test
    void everyPersonaOnEveryEndpointGetsThePolicysAnswer() throws Exception {
        nodes();
        DriverTable.register(jdbcUrl); // a live conductor offers the node's driver: its cleaning steps are answered
        List<String> wrong = new ArrayList<>();
        int cases = 0;
        for (Endpoint endpoint : ENDPOINTS) {
            for (Persona persona : Persona.values()) {
                Policy.Decision expected = POLICY.decide(endpoint.rules(), persona.principal(), Persona.NODE);
                int before = conductor.intentsFor(node).size();
                RequestSpecification request = as(persona);
                if (endpoint.body() != null) {
                    request = request.contentType("application/json").body(endpoint.body());
                }
                Response response = request.request(endpoint.method(), "/v1/nodes/" + node + endpoint.path());
                int status = response.statusCode();
                boolean ok = expected == Policy.Decision.ALLOWED ? status < 400 : status == expected.status;
                if (!ok) {
                    wrong.add(endpoint.method() + " " + endpoint.path() + " " + endpoint.rules() + " as " + persona
                            + ": expected " + expected + ", got " + status + " " + response.asString());
                }
                if (expected != Policy.Decision.ALLOWED && conductor.intentsFor(node).size() != before) {
                    wrong.add(endpoint.method() + " " + endpoint.path() + " as " + persona + " sent an intent though refused");
                }
                cases++;
            }
        }
        assertEquals(ENDPOINTS.size() * Persona.values().length, cases);
        assertTrue(wrong.isEmpty(), wrong.size() + " of " + cases + " cases wrong:\n" + String.join("\n", wrong));
    }

    /**
     * The allocator's record of the profile it applied, which it deletes on tear-down, is nobody's to write through
     * the API (issue 58): 400 by its path, inside a whole driver_info, or at creation, even for a system admin, and
     * no intent goes out.
     */
    @Test
    void theAppliedProfileIsNeverWrittenThroughTheApi() {
        nodes();
        int before = conductor.intentsFor(node).size();
        for (String body : List.of(patch("/driver_info/applied_server_profile_uri", "\"/rest/server-profiles/victims\""),
                "[{\"op\": \"remove\", \"path\": \"/driver_info/applied_server_profile_uri\"}]",
                patch("/driver_info", "{\"applied_server_profile_uri\": \"/rest/server-profiles/victims\"}"))) {
            Response refused = as(Persona.SYSTEM_ADMIN).contentType("application/json").body(body).patch("/v1/nodes/" + node);
            assertEquals(400, refused.statusCode(), body + ": " + refused.asString());
            assertTrue(refused.asString().contains("internal attribute"), refused.asString());
        }
        assertEquals(before, conductor.intentsFor(node).size(), "no intent sent");
        Response created = as(Persona.SYSTEM_ADMIN).contentType("application/json")
                .body("{\"driver\": \"oneview\", \"driver_info\": {\"applied_server_profile_uri\": \"/rest/server-profiles/v\"}}")
                .post("/v1/nodes");
        assertEquals(400, created.statusCode(), created.asString());
    }

    /**
     * Another project's portgroup answers its ports as a missing one does, 404 (Ironic's), by path and by the
     * {@code portgroup} parameter: a 200 with no ports told that the UUID exists (issue 58).
     */
    @Test
    void anotherProjectsPortgroupIsAsMissingAsOneThatIsNot() {
        nodes();
        UUID foreign = UUID.randomUUID();
        NodeTable.execute(jdbcUrl, "INSERT INTO portgroups (uuid, node_uuid, mode, created_at) VALUES (?, ?, 'active-backup', now())",
                foreign, UUID.fromString(othersNode));
        for (String portgroup : List.of(foreign.toString(), UUID.randomUUID().toString())) {
            for (String path : List.of("/v1/portgroups/" + portgroup + "/ports", "/v1/ports?portgroup=" + portgroup)) {
                Response response = as(Persona.OWNER_MEMBER).get(path);
                assertEquals(404, response.statusCode(), path + ": " + response.asString());
                assertTrue(response.asString().contains("Portgroup " + portgroup + " could not be found."), response.asString());
            }
        }
        assertEquals(200, as(Persona.SYSTEM_READER).get("/v1/portgroups/" + foreign + "/ports").statusCode(), "a system reader sees it");
    }

    /**
     * The agent's cached clean steps live in driver_internal_info, which a lessee may not read: it is refused them
     * (403, the rule named), as an owner reader is answered them (issue 58).
     */
    @Test
    void theAgentsCachedStepsAreForWhoMayReadDriverInternalInfo() {
        nodes();
        NodeTable.execute(jdbcUrl, "UPDATE nodes SET driver_internal_info = jsonb_build_object('agent_cached_clean_steps',"
                + " '{\"deploy\": [{\"interface\": \"deploy\", \"step\": \"erase_devices\", \"priority\": 10}]}'::jsonb)"
                + " WHERE uuid = ?", UUID.fromString(node));
        try {
            Response lessee = as(Persona.LESSEE_ADMIN).get("/v1/nodes/" + node + "/cleaning/steps");
            assertEquals(403, lessee.statusCode(), lessee.asString());
            assertTrue(lessee.asString().contains("baremetal:node:get:driver_internal_info"), lessee.asString());
            Response owner = as(Persona.OWNER_READER).get("/v1/nodes/" + node + "/cleaning/steps");
            assertEquals(200, owner.statusCode(), owner.asString());
            assertTrue(owner.asString().contains("erase_devices"), owner.asString());
        } finally {
            NodeTable.execute(jdbcUrl, "UPDATE nodes SET driver_internal_info = '{}'::jsonb WHERE uuid = ?", UUID.fromString(node));
        }
    }

    @Test
    void createIsForSystemAdminsAndServices() {
        nodes();
        for (Persona persona : Persona.values()) {
            boolean allowed = POLICY.allows("baremetal:node:create", persona.principal(), NodeOwnership.NONE);
            Response response = as(persona).contentType("application/json").body("{\"driver\": \"fake-hardware\"}")
                    .post("/v1/nodes");
            assertEquals(allowed ? 201 : 403, response.statusCode(), persona + ": " + response.asString());
        }
    }

    /**
     * A port's or portgroup's node is named in the body, and Ironic's port.py and portgroup.py judge it so: a node
     * the caller may not see (or that does not exist) is judged as a node nobody owns, 403 when that refuses, else
     * 400 (NodeNotFound in the body); a node it sees is judged on its owner and lessee, 403 when that refuses.
     */
    @Test
    void portsAndPortgroupsAreCreatedOnlyWhereThePolicyAllows() {
        nodes();
        for (Persona persona : Persona.values()) {
            for (String kind : List.of("port", "portgroup")) {
                Policy.Decision expected = POLICY.decide(Set.of("baremetal:" + kind + ":create"), persona.principal(), Persona.NODE);
                int before = conductor.intentsFor(node).size();
                String body = kind.equals("port") ? "{\"node_uuid\": \"" + node + "\", \"address\": \"52:54:00:00:00:"
                        + String.format("%02x", persona.ordinal()) + "\"}" : "{\"node_uuid\": \"" + node + "\"}";
                Response response = as(persona).contentType("application/json").body(body).post("/v1/" + kind + "s");
                if (expected == Policy.Decision.ALLOWED) {
                    assertEquals(201, response.statusCode(), kind + " as " + persona + ": " + response.asString());
                    assertEquals(before + 1, conductor.intentsFor(node).size(), kind + " as " + persona);
                    continue;
                }
                int status = expected != Policy.Decision.NOT_FOUND ? expected.status
                        : POLICY.allows("baremetal:" + kind + ":create", persona.principal(), NodeOwnership.NONE) ? 400 : 403;
                assertEquals(status, response.statusCode(), kind + " as " + persona + ": " + response.asString());
                assertTrue(response.asString().contains("could not be found") || response.asString().contains("Access was denied"),
                        response.asString());
                assertEquals(before, conductor.intentsFor(node).size(), kind + " as " + persona + " sent an intent though refused");
            }
        }
    }

    /** A node that does not exist: 400 for whoever may create on a node nobody owns, 403 for everyone else. */
    @Test
    void aPortOnANodeThatDoesNotExistIsRefusedAsIronicRefusesIt() {
        String missing = UUID.randomUUID().toString();
        for (Persona persona : Persona.values()) {
            for (String kind : List.of("port", "portgroup")) {
                String body = kind.equals("port") ? "{\"node_uuid\": \"" + missing + "\", \"address\": \"52:54:00:00:01:01\"}"
                        : "{\"node_uuid\": \"" + missing + "\"}";
                Response response = as(persona).contentType("application/json").body(body).post("/v1/" + kind + "s");
                boolean mayCreate = POLICY.allows("baremetal:" + kind + ":create", persona.principal(), NodeOwnership.NONE);
                assertEquals(mayCreate ? 400 : 403, response.statusCode(), kind + " as " + persona + ": " + response.asString());
                assertTrue(response.asString().contains(mayCreate ? "could not be found"
                        : "Access was denied to the following resource: baremetal:" + kind + ":create"), response.asString());
            }
        }
    }

    /**
     * A token naming one of Ironflow's own services may read, but changes no node through the API: the conductor
     * grants those services what it grants no operator (a write in a transition, the room under the size limit),
     * and they send their intents to Kafka themselves.
     */
    @Test
    void aCallerNamedAsOneOfOurServicesChangesNothingThroughTheApi() {
        nodes();
        String token = JwtAuthProfile.token(Principal.service("oneview-allocator"));
        int before = conductor.intentsFor(node).size();
        Response refused = Api.latest().header("X-Auth-Token", token).contentType("application/json")
                .body("[{\"op\": \"add\", \"path\": \"/extra/borrowed\", \"value\": 1}]").patch("/v1/nodes/" + node);
        assertEquals(403, refused.statusCode(), refused.asString());
        assertTrue(refused.asString().contains("reserved for Ironflow's own services"), refused.asString());
        assertEquals(before, conductor.intentsFor(node).size(), "no intent sent");
        assertEquals(200, Api.latest().header("X-Auth-Token", token).get("/v1/nodes/" + node).statusCode(), "reading is allowed");
    }

    @Test
    void intentsCarryTheAuthenticatedCaller() {
        nodes();
        as(Persona.OWNER_MEMBER).contentType("application/json").body("{\"target\": \"power off\"}")
                .put("/v1/nodes/" + node + "/states/power").then().statusCode(202);
        List<NodeIntent> sent = conductor.intentsFor(node);
        NodeIntent last = sent.get(sent.size() - 1);
        Principal who = IntentRules.fromAvro(last.getPrincipal());
        assertEquals(Persona.OWNER_MEMBER.principal(), who);
        assertEquals(Persona.OWNER_MEMBER.user(), last.getRequester());
    }

    @Test
    void aProjectListsOnlyTheNodesItOwnsOrLeases() throws Exception {
        nodes();
        for (Persona persona : Persona.values()) {
            Set<String> listed = new HashSet<>();
            JsonNode nodes = JSON.readTree(as(persona).get("/v1/nodes?limit=1000").then().statusCode(200).extract().asString())
                    .get("nodes");
            nodes.forEach(n -> listed.add(n.get("uuid").asText()));
            if (persona.relation == Persona.Relation.SYSTEM) {
                assertTrue(listed.containsAll(Set.of(node, othersNode)), persona + " sees every node: " + listed);
            } else {
                // The module's tests share one database: other tests' nodes of the same projects are listed too.
                assertEquals(NodeTable.ownedOrLeasedBy(jdbcUrl, persona.project()), listed,
                        persona + " sees the nodes its project owns or leases only");
                assertTrue(listed.contains(persona.relation == Persona.Relation.OTHER ? othersNode : node), persona.toString());
                assertFalse(listed.contains(persona.relation == Persona.Relation.OTHER ? node : othersNode), persona.toString());
            }
        }
    }

    @Test
    void driverInfoAndLastErrorAreRedactedForWhoMayNotReadThem() throws Exception {
        nodes();
        for (Persona persona : Persona.values()) {
            if (persona.relation == Persona.Relation.OTHER) {
                continue;
            }
            JsonNode shown = JSON.readTree(as(persona).get("/v1/nodes/" + node).then().statusCode(200).extract().asString());
            boolean may = POLICY.allows("baremetal:node:get:driver_info", persona.principal(), Persona.NODE);
            assertEquals(may, shown.get("driver_info").has("ipmi_address"), persona + ": " + shown.get("driver_info"));
            assertEquals(!may, shown.get("driver_info").path("content").asText().contains("Redacted"), persona.toString());
            boolean error = POLICY.allows("baremetal:node:get:last_error", persona.principal(), Persona.NODE);
            assertEquals(error, "boom".equals(shown.get("last_error").asText()), persona + ": " + shown.get("last_error"));
        }
    }

    @Test
    void withoutAValidTokenItIs401WithAChallengeAndIronicsBody() throws Exception {
        Principal admin = Persona.SYSTEM_ADMIN.principal();
        List<RequestSpecification> unauthenticated = List.of(
                Api.latest(),
                Api.latest().header("X-Auth-Token", "not-a-token"),
                Api.latest().header("Authorization", "Bearer " + JwtAuthProfile.token(admin, JwtAuthProfile.STRANGER, Duration.ofMinutes(5))),
                Api.latest().header("X-Auth-Token", JwtAuthProfile.token(admin, JwtAuthProfile.KEYS, Duration.ofMinutes(-5))),
                Api.latest().header("Authorization", "Basic YWRtaW46YWRtaW4="));
        for (RequestSpecification request : unauthenticated) {
            Response response = request.get("/v1/nodes");
            assertEquals(401, response.statusCode(), response.asString());
            assertTrue(response.header("WWW-Authenticate").startsWith("Bearer"), response.header("WWW-Authenticate"));
            JsonNode fault = JSON.readTree(JSON.readTree(response.asString()).get("error_message").asText());
            assertTrue(fault.get("faultstring").asText().startsWith("Authentication required"), fault.toString());
        }
        for (String open : List.of("/", "/v1", "/q/health/ready")) {
            assertEquals(200, given().get(open).statusCode(), open + " stays open, as in Ironic");
        }
        assertFalse(given().get("/v1/drivers").statusCode() < 400, "every other path needs a token");
    }
}
