package io.ironflow.oneview.migration;

import static io.ironflow.oneview.OneViewAdmin.get;
import static io.ironflow.oneview.OneViewAdmin.hardwareUri;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ironflow.deploy.testing.IronflowTestInfrastructure;
import io.ironflow.deploy.testing.KafkaTestClient;
import io.ironflow.deploy.testing.OneViewSimulatorProcess;
import io.ironflow.events.AllocationAction;
import io.ironflow.events.AllocationResult;
import io.ironflow.events.NodeIntent;
import io.ironflow.events.NodeSnapshot;
import io.ironflow.events.UpdateNode;
import io.ironflow.oneview.OneViewAdmin;
import io.ironflow.schemas.Topic;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

/**
 * The pre-allocation → dynamic allocation migration on a pre-allocated inventory: every node's profile applied
 * beforehand (as the old model required), node states published on ironflow.node-state as the conductor would.
 */
@QuarkusTest
@QuarkusTestResource(IronflowTestInfrastructure.class)
@QuarkusTestResource(OneViewSimulatorProcess.class)
class PreAllocationMigrationTest {

    private static NodeSnapshot snapshot(String uuid, String state, String hardware) {
        return NodeSnapshot.newBuilder().setUuid(uuid).setRevision(1).setDriver("oneview").setProvisionState(state)
                .setDriverInfo("{\"server_hardware_uri\":\"" + hardware + "\",\"dynamic_allocation\":false}")
                .setCreatedAt(Instant.now()).build();
    }

    @Test
    void aDryRunPrintsThePlanThenTheRunRecordsActiveProfilesAndFreesAvailableHardware() {
        String active = UUID.randomUUID().toString();
        String available = UUID.randomUUID().toString();
        String manageable = UUID.randomUUID().toString();
        String activeProfile = OneViewAdmin.takeAsOneViewUser(hardwareUri(101), "pre-allocated 101");
        String availableProfile = OneViewAdmin.takeAsOneViewUser(hardwareUri(102), "pre-allocated 102");
        try (KafkaTestClient kafka = KafkaTestClient.ofTestConfig()) {
            kafka.send(Topic.NODE_STATE.topicName(), active, snapshot(active, "active", hardwareUri(101)));
            kafka.send(Topic.NODE_STATE.topicName(), available, snapshot(available, "available", hardwareUri(102)));
            kafka.send(Topic.NODE_STATE.topicName(), manageable, snapshot(manageable, "manageable", hardwareUri(103)));
            // Neither a record that does not decode nor one of another type stops the command: both are passed over.
            kafka.sendRaw(Topic.NODE_STATE.topicName(), UUID.randomUUID().toString(), "not avro".getBytes(StandardCharsets.UTF_8));
            kafka.sendRaw(Topic.NODE_STATE.topicName(), UUID.randomUUID().toString(), kafka.wrongType(AllocationResult.newBuilder()
                    .setRequestId(UUID.randomUUID().toString()).setNodeUuid(active).setAction(AllocationAction.APPLY)
                    .setSuccess(true).setCompletedAt(Instant.now()).build()));

            // A real run powers off and strips available nodes' profiles: a dry_run it cannot read runs nothing.
            for (String query : List.of("dry_run=maybe", "dry_run=", "dry_run", "dry_run=true&dry_run=false", "dry_run=%00")) {
                given().post("/admin/migrate-to-dynamic-allocation?" + query).then().statusCode(400)
                        .body("error", startsWith("dry_run must be given once, as true or false"));
            }
            for (String yes : List.of("1", "yes", "ON", "t")) {
                given().post("/admin/migrate-to-dynamic-allocation?dry_run=" + yes).then().statusCode(200);
            }
            assertEquals(availableProfile, get(hardwareUri(102)).getString("serverProfileUri"), "nothing ran");

            List<Map<String, Object>> plan = given().post("/admin/migrate-to-dynamic-allocation?dry_run=true")
                    .then().statusCode(200).extract().jsonPath().getList("");
            assertEquals(3, plan.size(), plan::toString);
            Map<String, Map<String, Object>> byNode = new java.util.HashMap<>();
            plan.forEach(step -> byNode.put((String) step.get("node"), step));
            assertEquals("record applied_server_profile_uri, set dynamic_allocation", byNode.get(active).get("action"));
            assertEquals(activeProfile, byNode.get(active).get("profile"));
            assertEquals("remove the server profile, set dynamic_allocation", byNode.get(available).get("action"));
            assertEquals("skip", byNode.get(manageable).get("action"));
            assertTrue(plan.stream().allMatch(s -> !"done".equals(s.get("outcome"))));
            assertEquals(availableProfile, get(hardwareUri(102)).getString("serverProfileUri"), "a dry run changes nothing");

            given().post("/admin/migrate-to-dynamic-allocation").then().statusCode(200);
            assertEquals(activeProfile, get(hardwareUri(101)).getString("serverProfileUri"), "the active node keeps its profile");
            assertNull(get(hardwareUri(102)).getString("serverProfileUri"), "the available node's profile is removed");
            assertEquals("Off", get(hardwareUri(102)).getString("powerState"));
            List<ConsumerRecord<String, NodeIntent>> intents = kafka.read(Topic.NODE_INTENTS.topicName(), Duration.ofSeconds(20),
                    records -> records.stream().filter(r -> r.key().equals(active) || r.key().equals(available)).count() >= 2);
            String activePatch = intents.stream().filter(r -> r.key().equals(active))
                    .map(r -> ((UpdateNode) r.value().getCommand()).getPatch()).findFirst().orElseThrow();
            assertTrue(activePatch.contains("\"path\":\"/driver_info/applied_server_profile_uri\",\"value\":\"" + activeProfile + "\"")
                    && activePatch.contains("/driver_info/dynamic_allocation"), activePatch);
            assertTrue(intents.stream().noneMatch(r -> r.key().equals(manageable)));
        } finally {
            OneViewAdmin.freeAsOneViewUser(hardwareUri(101));
        }
    }
}
