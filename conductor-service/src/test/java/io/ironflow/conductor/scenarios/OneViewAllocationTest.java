package io.ironflow.conductor.scenarios;

import io.ironflow.conductor.testing.Conductor;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ironflow.deploy.testing.IronflowTestInfrastructure;
import io.ironflow.deploy.testing.KafkaTestClient;
import io.ironflow.events.AllocationAction;
import io.ironflow.events.AllocationPurpose;
import io.ironflow.events.AllocationRequest;
import io.ironflow.events.AllocationResult;
import io.ironflow.events.CreateNode;
import io.ironflow.events.IntentResult;
import io.ironflow.events.NodeEvent;
import io.ironflow.events.ObserveServerHardware;
import io.ironflow.events.NodeIntent;
import io.ironflow.policy.IntentRules;
import io.ironflow.policy.Principal;
import io.ironflow.events.UpdateNode;
import io.ironflow.events.ValidateNode;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ironflow.schemas.Topic;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The conductor's half of OneView dynamic allocation through real Kafka and PostgreSQL, the test playing the
 * oneview-allocator on allocation-requests / allocation-results: prepare_cleaning and prepare wait for a profile,
 * tear_down_cleaning for its removal, a refusal fails the operation with the allocator's message.
 */
@QuarkusTest
@QuarkusTestResource(IronflowTestInfrastructure.class)
class OneViewAllocationTest {

    /** Each test's own server hardware: a piece of hardware belongs to one node, and the tests share one database. */
    private final String hardware = "/rest/server-hardware/" + UUID.randomUUID();
    private static final String TEMPLATE = "/rest/server-profile-templates/spt-bl460c-ironic";

    Conductor conductor;
    KafkaTestClient kafka;
    KafkaTestClient.Follower<AllocationRequest> requests;

    @BeforeEach
    void connect() {
        conductor = Conductor.connect();
        kafka = KafkaTestClient.ofTestConfig();
        requests = kafka.follow(Topic.ALLOCATION_REQUESTS.topicName());
    }

    @AfterEach
    void disconnect() {
        requests.close();
        conductor.close();
        kafka.close();
    }

    private String enroll(Map<String, Object> driverInfo) {
        String uuid = UUID.randomUUID().toString();
        IntentResult result = conductor.send(uuid, CreateNode.newBuilder().setDriver("oneview")
                .setDriverInfo(Conductor.json(driverInfo))
                .setProperties(Conductor.json(Map.of("capabilities", "server_profile_template_uri:" + TEMPLATE + ",boot_mode:uefi")))
                .build());
        assertEquals(201, result.getCode(), result.getErrorMessage());
        return uuid;
    }

    /** The node's {@code n}-th allocation request (1-based), waiting for it. */
    private AllocationRequest request(String node, int n) {
        List<AllocationRequest> sent = requests.await(Conductor.WAIT,
                        records -> records.stream().filter(r -> r.key().equals(node)).count() >= n)
                .stream().filter(r -> r.key().equals(node)).map(ConsumerRecord::value).toList();
        assertTrue(sent.size() >= n, "allocation request " + n + " of node " + node + " was sent");
        return sent.get(n - 1);
    }

    private void answer(AllocationRequest request, boolean success, String profile, String error, boolean inUseByOneView) {
        answer(request, success, profile, error, inUseByOneView, null);
    }

    private void answer(AllocationRequest request, boolean success, String profile, String error, boolean inUseByOneView,
            String powerState) {
        kafka.send(Topic.ALLOCATION_RESULTS.topicName(), request.getNodeUuid(), AllocationResult.newBuilder()
                .setRequestId(request.getRequestId()).setNodeUuid(request.getNodeUuid()).setAction(request.getAction())
                .setSuccess(success).setServerProfileUri(profile).setErrorMessage(error).setInUseByOneView(inUseByOneView)
                .setPowerState(powerState).setCompletedAt(Instant.now()).build());
    }

    /**
     * An answer no conductor can decode is dead-lettered with the decoder's reason and committed although nothing
     * follows it on its partition (else every rebalance would dead-letter it again).
     */
    @Test
    void aPoisonAnswerIsDeadLetteredAndCommitted() {
        String poisonKey = UUID.randomUUID().toString();
        RecordMetadata poison = kafka.sendRaw(Topic.ALLOCATION_RESULTS.topicName(), poisonKey,
                "not avro".getBytes(StandardCharsets.UTF_8));
        ConsumerRecord<String, byte[]> letter = kafka.deadLetter(Topic.ALLOCATION_RESULTS_DLQ.topicName(), poisonKey, Conductor.WAIT);
        assertTrue(new String(letter.headers().lastHeader("dead-letter-reason").value(), StandardCharsets.UTF_8)
                .contains("not an AllocationResult"));
        assertNotNull(letter.headers().lastHeader("deserialization-failure-reason"), "the decoder's own reason is kept");
        await("the poison record committed").atMost(Conductor.WAIT).until(() -> kafka.committedOffset(
                "ironflow-conductor-allocations", Topic.ALLOCATION_RESULTS.topicName(), poison.partition()) > poison.offset());

        // A record that decodes but is no AllocationResult (a request framed as another topic's record): the same.
        String wrongTypeKey = UUID.randomUUID().toString();
        kafka.sendRaw(Topic.ALLOCATION_RESULTS.topicName(), wrongTypeKey, kafka.wrongType(
                AllocationRequest.newBuilder().setRequestId(UUID.randomUUID().toString()).setNodeUuid(wrongTypeKey)
                        .setAction(AllocationAction.APPLY).setPurpose(AllocationPurpose.DEPLOY).setRequestedAt(Instant.now()).build()));
        ConsumerRecord<String, byte[]> wrongType = kafka.deadLetter(Topic.ALLOCATION_RESULTS_DLQ.topicName(), wrongTypeKey, Conductor.WAIT);
        assertTrue(new String(wrongType.headers().lastHeader("dead-letter-reason").value(), StandardCharsets.UTF_8)
                .contains("cannot be cast to class io.ironflow.events.AllocationResult"), "the reason names the type expected");
    }

    /**
     * An answer that meets its node's row locked past lock_timeout (a wedged transaction, a database restarting)
     * is tried again, not dead-lettered: OneView's work is done, and dropping its answer would leave the node in
     * clean wait until its timeout failed it.
     */
    @Test
    void anAnswerThatMeetsItsNodeLockedIsTriedAgainNotDropped() throws SQLException {
        String node = enroll(Map.of("server_hardware_uri", hardware));
        conductor.drive(node, "manage", "manageable");
        assertEquals(202, conductor.provision(node, "provide").getCode());
        AllocationRequest apply = request(node, 1);
        conductor.awaitState(node, "clean wait");
        String claimWaits = "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
                + " AND query LIKE 'UPDATE nodes SET reservation%' AND query LIKE '%request_id%'";
        try (var holder = io.ironflow.conductor.testing.Sql.connect()) {
            holder.setAutoCommit(false);
            holder.createStatement().execute("SELECT 1 FROM nodes WHERE uuid = '" + node + "' FOR UPDATE");
            answer(apply, true, "/rest/server-profiles/locked", null, false);
            await("the answer's claim waits for the row").atMost(Conductor.WAIT).pollInterval(Duration.ofMillis(20))
                    .until(() -> !"0".equals(conductor.query(claimWaits)));
            await("lock_timeout ends that attempt").atMost(Conductor.WAIT).pollInterval(Duration.ofMillis(20))
                    .until(() -> "0".equals(conductor.query(claimWaits)));
            holder.rollback();
        }
        AllocationRequest remove = request(node, 2); // the cleaning went on with the profile the answer recorded
        assertEquals(AllocationAction.REMOVE, remove.getAction());
        assertEquals("/rest/server-profiles/locked", remove.getAppliedServerProfileUri());
        answer(remove, true, null, null, false, "power off");
        conductor.awaitState(node, "available");
    }

    @Test
    void cleaningHoldsAProfileOnlyWhileItRunsAndDeployKeepsOne() throws SQLException {
        String node = enroll(Map.of("server_hardware_uri", hardware));
        conductor.drive(node, "manage", "manageable");
        assertEquals(202, conductor.provision(node, "provide").getCode());

        AllocationRequest apply = request(node, 1);
        assertEquals(AllocationAction.APPLY, apply.getAction());
        assertEquals(AllocationPurpose.CLEANING, apply.getPurpose());
        assertEquals(hardware, apply.getServerHardwareUri());
        assertEquals(TEMPLATE, apply.getServerProfileTemplateUri());
        assertNull(apply.getAppliedServerProfileUri());
        assertTrue(apply.getDeadline().isAfter(Instant.now()));
        conductor.awaitState(node, "clean wait");
        answer(apply, true, "/rest/server-profiles/p1", null, false);

        AllocationRequest remove = request(node, 2);
        assertEquals(AllocationAction.REMOVE, remove.getAction());
        assertEquals("/rest/server-profiles/p1", remove.getAppliedServerProfileUri());
        assertEquals("[\"erase_devices_metadata\", \"erase_devices\"]",
                conductor.column(node, "driver_internal_info->'fake_hardware'->'erase_history'"), "the clean steps ran with the profile");
        conductor.awaitState(node, "clean wait");
        answer(remove, true, null, null, false, "power off");
        conductor.awaitState(node, "available");
        assertNull(conductor.column(node, "driver_info->>'applied_server_profile_uri'"));
        assertEquals("power off", conductor.column(node, "power_state"), "the removal powered the hardware off, OneView says");

        assertEquals(202, conductor.provision(node, "active").getCode());
        AllocationRequest deploy = request(node, 3);
        assertEquals(AllocationPurpose.DEPLOY, deploy.getPurpose());
        assertEquals(AllocationAction.APPLY, deploy.getAction());
        conductor.awaitState(node, "wait call-back");
        answer(deploy, true, "/rest/server-profiles/p2", null, false);
        AllocationRequest powerOn = request(node, 4); // the deployed node is powered on, by OneView
        assertEquals(AllocationAction.POWER, powerOn.getAction());
        assertEquals("power on", powerOn.getPowerTarget());
        answer(powerOn, true, null, null, false, "power on");
        conductor.awaitState(node, "active");
        assertEquals("/rest/server-profiles/p2", conductor.column(node, "driver_info->>'applied_server_profile_uri'"));
        assertEquals("/rest/server-profiles/p2", conductor.column(node,
                "driver_internal_info->'oneview_server_hardware'->>'server_profile_uri'"), "the allocator's answer is an observation too");
        assertTrue(validate(node).path("power").path("result").asBoolean(), "Ironflow's own profile is no refusal");

        List<String> path = conductor.events(node, 15).stream().map(NodeEvent::getToState).toList();
        assertEquals(List.of("enroll", "verifying", "manageable", "cleaning", "clean wait", "cleaning", "clean wait", "cleaning",
                "available", "deploying", "wait call-back", "deploying", "wait call-back", "deploying", "active"), path.subList(0, 15));
    }

    /**
     * A cleaning that fails, or is aborted, gives its profile back as Ironic's tear_down_cleaning does: the REMOVE
     * goes out with the failure, nothing waits for it, and a late APPLY answer changes nothing. Without it the
     * profile stayed on the hardware, unrecorded once the APPLY's answer was dropped.
     */
    @Test
    void aFailedOrAbortedCleaningGivesItsProfileBack() throws SQLException {
        String failing = enroll(Map.of("server_hardware_uri", hardware, "fake_fail_steps", List.of("deploy.erase_devices")));
        conductor.drive(failing, "manage", "manageable");
        assertEquals(202, conductor.provision(failing, "provide").getCode());
        AllocationRequest apply = request(failing, 1);
        conductor.awaitState(failing, "clean wait");
        answer(apply, true, "/rest/server-profiles/p-failing", null, false);
        AllocationRequest giveBack = request(failing, 2);
        assertEquals(AllocationAction.REMOVE, giveBack.getAction());
        assertEquals("/rest/server-profiles/p-failing", giveBack.getAppliedServerProfileUri());
        conductor.awaitState(failing, "clean failed");
        assertTrue(conductor.column(failing, "last_error").contains("deploy.erase_devices"), conductor.column(failing, "last_error"));
        assertEquals("given back", conductor.column(failing, "driver_internal_info->>'oneview_profile'"));
        answer(giveBack, true, null, null, false, "power off");

        String aborted = enroll(Map.of("server_hardware_uri", hardware + "-aborted"));
        conductor.drive(aborted, "manage", "manageable");
        assertEquals(202, conductor.provision(aborted, "provide").getCode());
        AllocationRequest pending = request(aborted, 1);
        conductor.awaitState(aborted, "clean wait");
        assertEquals(202, conductor.provision(aborted, "abort").getCode());
        conductor.awaitState(aborted, "clean failed");
        AllocationRequest removal = request(aborted, 2);
        assertEquals(AllocationAction.REMOVE, removal.getAction(), "the APPLY still out is followed by its removal");
        answer(pending, true, "/rest/server-profiles/p-late", null, false); // the late answer: nobody waits for it
        answer(removal, true, null, null, false, "power off");
        assertEquals("clean failed", conductor.column(aborted, "provision_state"));
        assertNull(conductor.column(aborted, "driver_info->>'applied_server_profile_uri'"));
        assertNull(conductor.column(aborted, "driver_internal_info->'oneview_allocation'"));
    }

    @Test
    void deployPowersOnAndTearDownPowersOffThroughOneViewAndAPowerFailureFailsTheOperation() throws SQLException {
        String node = enroll(Map.of("server_hardware_uri", hardware));
        conductor.drive(node, "manage", "manageable");
        assertEquals(202, conductor.provision(node, "provide").getCode());
        answer(request(node, 1), true, "/rest/server-profiles/p1", null, false);
        answer(request(node, 2), true, null, null, false, "power off");
        conductor.awaitState(node, "available");

        assertEquals(202, conductor.provision(node, "active").getCode());
        answer(request(node, 3), true, "/rest/server-profiles/p2", null, false);
        AllocationRequest on = request(node, 4);
        assertEquals(AllocationAction.POWER, on.getAction());
        assertEquals("power on", on.getPowerTarget());
        assertTrue(on.getDeadline().isAfter(Instant.now()));
        conductor.awaitState(node, "wait call-back");
        assertEquals("power on", conductor.column(node, "target_power_state"));
        assertEquals("power off", conductor.column(node, "power_state"), "not on before OneView says so");
        IntentResult meanwhile = conductor.power(node, "power off");
        assertEquals(409, meanwhile.getCode(), "the deploy's power change is not replaced");
        assertTrue(meanwhile.getErrorMessage().contains("is waiting for OneView to change its power state to 'power on'"),
                meanwhile.getErrorMessage());
        answer(on, true, null, null, false, "power on");
        conductor.awaitState(node, "active");
        assertEquals("power on", conductor.column(node, "power_state"));
        assertNull(conductor.column(node, "target_power_state"));

        // Undeploy: the tear-down's power off goes to OneView first thing in the cleaning after it (clean wait),
        // then the profile is reused for cleaning and removed.
        assertEquals(202, conductor.provision(node, "deleted").getCode());
        AllocationRequest off = request(node, 5);
        assertEquals(AllocationAction.POWER, off.getAction());
        assertEquals("power off", off.getPowerTarget());
        conductor.awaitState(node, "clean wait");
        assertEquals("power on", conductor.column(node, "power_state"), "still on: OneView has not said otherwise");
        answer(off, true, null, null, false, "power off");
        AllocationRequest reuse = request(node, 6);
        assertEquals(AllocationAction.APPLY, reuse.getAction());
        assertEquals("power off", conductor.column(node, "power_state"));
        answer(reuse, true, "/rest/server-profiles/p2", null, false);
        answer(request(node, 7), true, null, null, false, "power off");
        conductor.awaitState(node, "available");

        // OneView fails the power on: deploy failed, with OneView's message in Ironic's words.
        assertEquals(202, conductor.provision(node, "active").getCode());
        answer(request(node, 8), true, "/rest/server-profiles/p3", null, false);
        answer(request(node, 9), false, null, "OneView: The iLO does not respond.", false);
        conductor.awaitState(node, "deploy failed");
        assertEquals("Failed to change power state to 'power on' on node " + node + ": OneView: The iLO does not respond.",
                conductor.column(node, "last_error"));
        assertEquals("power off", conductor.column(node, "power_state"));
        assertNull(conductor.column(node, "target_power_state"));
    }

    @Test
    void hardwareHeldByOneViewFailsCleaningWithTheHolderAndAnAllocationError() throws SQLException {
        String node = enroll(Map.of("server_hardware_uri", hardware));
        conductor.drive(node, "manage", "manageable");
        assertEquals(202, conductor.provision(node, "provide").getCode());
        AllocationRequest apply = request(node, 1);
        String holder = "Node " + node + " is in use by OneView: server hardware Encl1, bay 1 carries the server profile 'SAP'.";
        answer(apply, false, null, holder, true);
        conductor.awaitState(node, "clean failed");
        assertEquals(holder, conductor.column(node, "last_error"));
        assertEquals("server hardware allocation error", conductor.column(node, "driver_internal_info->>'oneview_error'"));
        assertEquals("server hardware allocation error", conductor.send(node, new ValidateNode()).getNode().getOneviewError(),
                "the snapshot carries the fact the allocator's clean-failed check reads");

        // A late or repeated answer for a request the node no longer waits for changes nothing.
        answer(apply, true, "/rest/server-profiles/late", null, false);
        conductor.events(node, 6);
        assertEquals("clean failed", conductor.column(node, "provision_state"));
        assertNull(conductor.column(node, "driver_info->>'applied_server_profile_uri'"));
    }

    private JsonNode validate(String node) {
        IntentResult result = conductor.send(node, new ValidateNode());
        assertEquals(200, result.getCode(), result.getErrorMessage());
        try {
            return new ObjectMapper().readTree(result.getValidation());
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    /** What the allocator reports, as the allocator: the service role (the rule is service-only). */
    private IntentResult observe(String node, String hardware, String profile, String name) {
        return observe(node, hardware, profile, name, null);
    }

    private IntentResult observe(String node, String hardware, String profile, String name, String powerState) {
        NodeIntent intent = NodeIntent.newBuilder(Conductor.intent(node,
                        new ObserveServerHardware(hardware, profile, name, Instant.now(), powerState)))
                .setPrincipal(IntentRules.toAvro(Principal.service("oneview-allocator"))).build();
        return conductor.sendAll(List.of(intent)).get(intent.getIntentId());
    }

    /** A patch as the allocator sends it: only its principal records the applied profile. */
    private IntentResult asAllocator(String node, String patch) {
        NodeIntent intent = NodeIntent.newBuilder(Conductor.intent(node, new UpdateNode(patch)))
                .setPrincipal(IntentRules.toAvro(Principal.service("oneview-allocator"))).build();
        return conductor.sendAll(List.of(intent)).get(intent.getIntentId());
    }

    @Test
    void validationRefusesANodeTheAllocatorSawInUseByOneViewUnlessItsTargetIsManageable() throws SQLException {
        String node = enroll(Map.of("server_hardware_uri", hardware));
        assertTrue(validate(node).path("power").path("result").asBoolean(), "nothing observed yet: valid");

        IntentResult byAnAdmin = conductor.send(node, new ObserveServerHardware(hardware, "/rest/server-profiles/x", "x", Instant.now(), null));
        assertEquals(403, byAnAdmin.getCode(), "only the allocator's service role records what OneView shows");
        IntentResult seen = observe(node, hardware, "/rest/server-profiles/theirs", "SAP HANA prod");
        assertEquals(200, seen.getCode(), seen.getErrorMessage());
        assertEquals("/rest/server-profiles/theirs", seen.getNode().getOneviewServerProfileUri());
        for (String iface : List.of("power", "management")) {
            JsonNode entry = validate(node).path(iface);
            assertEquals(false, entry.path("result").asBoolean(true), iface);
            assertTrue(entry.path("reason").asText().contains("is in use by OneView")
                    && entry.path("reason").asText().contains("'SAP HANA prod'"), entry.toString());
            // the URI is what undeploying with a copied applied_server_profile_uri would delete: never shown (issue 58)
            assertFalse(entry.path("reason").asText().contains("/rest/server-profiles/theirs"), entry.toString());
        }
        assertTrue(validate(node).path("deploy").path("result").asBoolean(), "deploy is fake: not concerned");

        // manage runs verification with target manageable: the spec skips the check, so such nodes can be cleaned.
        conductor.drive(node, "manage", "manageable");
        assertNull(conductor.column(node, "last_error"));
        assertEquals(false, validate(node).path("power").path("result").asBoolean(true), "no target now: refused again");

        // Ironflow's own profile, then free hardware: valid.
        assertEquals(200, asAllocator(node, "[{\"op\":\"add\",\"path\":\"/driver_info/applied_server_profile_uri\","
                + "\"value\":\"/rest/server-profiles/theirs\"}]").getCode());
        assertTrue(validate(node).path("power").path("result").asBoolean(), "the profile is the node's applied one");
        assertEquals(200, asAllocator(node, "[{\"op\":\"remove\",\"path\":\"/driver_info/applied_server_profile_uri\"}]").getCode());
        observe(node, hardware, null, null);
        assertTrue(validate(node).path("power").path("result").asBoolean(), "free");

        // A fact about other hardware than the node's, or about a node of another driver, is refused and not kept.
        IntentResult other = observe(node, "/rest/server-hardware/other", "/rest/server-profiles/x", null);
        assertEquals(400, other.getCode());
        assertNull(other.getNode() == null ? null : other.getNode().getOneviewServerProfileUri());
        String fake = conductor.create(Map.of());
        assertEquals(400, observe(fake, hardware, "/rest/server-profiles/x", null).getCode());
        // Pointing the node at other hardware leaves the old fact behind: it no longer counts.
        observe(node, hardware, "/rest/server-profiles/theirs", "SAP HANA prod");
        assertEquals(200, conductor.patch(node, "[{\"op\":\"replace\",\"path\":\"/driver_info/server_hardware_uri\","
                + "\"value\":\"" + hardware + "-moved\"}]").getCode());
        assertTrue(validate(node).path("power").path("result").asBoolean(), "the fact was about the old hardware");
    }

    @Test
    void powerOfAOneViewNodeIsAskedOfTheAllocatorAndItsAnswerOrItsSilenceDecides() throws SQLException {
        String node = enroll(Map.of("server_hardware_uri", hardware));
        IntentResult accepted = conductor.power(node, "power on");
        assertEquals(202, accepted.getCode(), accepted.getErrorMessage());
        assertEquals("power on", accepted.getNode().getTargetPowerState());
        AllocationRequest on = request(node, 1);
        assertEquals(AllocationAction.POWER, on.getAction());
        assertEquals("power on", on.getPowerTarget());
        assertEquals(hardware, on.getServerHardwareUri());
        assertTrue(on.getDeadline().isAfter(Instant.now()));
        assertNull(conductor.column(node, "reservation"), "the node is not held while OneView works");
        answer(on, true, null, null, false);
        awaitColumn(node, "power_state", "power on");
        assertNull(conductor.column(node, "target_power_state"));
        assertNull(conductor.column(node, "driver_internal_info->'fake_hardware'->>'power_state'"), "not fake-hardware's record");

        // OneView refuses: a power failure in Ironic's words, with OneView's message; the power state stays.
        assertEquals(202, conductor.power(node, "power off").getCode());
        AllocationRequest off = request(node, 2);
        answer(off, false, null, "OneView: The iLO does not respond.", false);
        awaitColumn(node, "target_power_state", null);
        assertEquals("Failed to change power state to 'power off' on node " + node + ": OneView: The iLO does not respond.",
                conductor.column(node, "last_error"));
        assertEquals("power on", conductor.column(node, "power_state"));

        // A newer request replaces the pending one; the older answer then changes nothing. Unanswered, it fails
        // at its deadline (3 s in tests).
        assertEquals(202, conductor.power(node, "rebooting").getCode());
        AllocationRequest reboot = request(node, 3);
        assertEquals(202, conductor.power(node, "soft power off").getCode());
        AllocationRequest soft = request(node, 4);
        answer(reboot, false, null, "late", false);
        awaitColumn(node, "last_error", "Failed to change power state to 'soft power off' on node " + node
                + ": the oneview-allocator did not answer before the deadline.");
        assertNull(conductor.column(node, "target_power_state"));
        answer(soft, true, null, null, false); // after the deadline: nothing waits for it
        conductor.events(node, 1);
        assertEquals("power on", conductor.column(node, "power_state"));
    }

    @Test
    void oneViewIsThePowerTruthTheSyncPushesTheRecordedStateAndGivesUpIntoMaintenance() throws SQLException {
        String node = enroll(Map.of("server_hardware_uri", hardware));
        assertEquals(200, observe(node, hardware, null, null, "power off").getCode());
        assertNull(conductor.column(node, "power_state"), "enroll is not synced (Ironic's SYNC_EXCLUDED_STATES)");
        conductor.drive(node, "manage", "manageable");
        observe(node, hardware, null, null, "power off");
        assertEquals("power off", conductor.column(node, "power_state"), "no state recorded yet: OneView's is taken");

        assertEquals(202, conductor.power(node, "power on").getCode());
        answer(request(node, 1), true, null, null, false, "power on");
        awaitColumn(node, "power_state", "power on");

        // OneView says Off behind Ironflow's back: forced (Ironic's default), the recorded state goes to the hardware.
        for (int attempt = 1; attempt <= 3; attempt++) {
            IntentResult seen = observe(node, hardware, null, null, "power off");
            assertEquals(200, seen.getCode(), seen.getErrorMessage());
            assertEquals("power on", seen.getNode().getPowerState());
            assertEquals("power on", seen.getNode().getTargetPowerState());
            AllocationRequest forced = request(node, 1 + attempt);
            assertEquals(AllocationAction.POWER, forced.getAction());
            assertEquals("power on", forced.getPowerTarget());
            assertEquals(200, observe(node, hardware, null, null, "power off").getCode(), "a pending change is not synced");
            answer(forced, false, null, "OneView: The iLO does not respond.", false);
            awaitColumn(node, "target_power_state", null);
        }
        NodeEvent noticed = kafka.<NodeEvent>read(Topic.NODE_EVENTS.topicName(), Conductor.WAIT, records -> records.stream()
                        .anyMatch(r -> r.key().equals(node) && r.value().getDetail() != null))
                .stream().filter(r -> r.key().equals(node)).map(ConsumerRecord::value).filter(e -> e.getDetail() != null)
                .findFirst().orElseThrow();
        assertEquals("power sync", noticed.getEvent());
        assertEquals("manageable", noticed.getFromState());
        assertEquals("manageable", noticed.getToState());
        assertTrue(noticed.getDetail().contains("state 'power off' (OneView) does not match expected state. Changing hardware "
                + "state to 'power on' (attempt 1 of 3)"), noticed.getDetail());

        // The fourth mismatch in a row: OneView's state is taken and the node goes to maintenance, as Ironic.
        observe(node, hardware, null, null, "power off");
        assertEquals("power off", conductor.column(node, "power_state"));
        assertEquals("true", conductor.column(node, "maintenance::text"));
        String reason = conductor.column(node, "maintenance_reason");
        assertTrue(reason.startsWith("During sync_power_state, max retries exceeded for node " + node), reason);
        assertEquals(reason, conductor.column(node, "last_error"));
        org.awaitility.Awaitility.await().atMost(Conductor.WAIT).until(() -> "ERROR monitoring".equals(conductor.query(
                "SELECT severity || ' ' || event_type FROM node_history WHERE node_uuid = '" + node + "' AND event = '"
                        + reason.replace("'", "''") + "'")));
        observe(node, hardware, null, null, "power on");
        assertEquals("power off", conductor.column(node, "power_state"), "a node in maintenance is not synced");
        assertEquals(4, kafka.<AllocationRequest>readAll(Topic.ALLOCATION_REQUESTS.topicName(), Duration.ofSeconds(3)).stream()
                .filter(r -> r.key().equals(node)).count(), "no power request after giving up");
    }

    private void awaitColumn(String node, String expression, String expected) {
        org.awaitility.Awaitility.await().atMost(Conductor.WAIT).until(() -> java.util.Objects.equals(expected,
                conductor.column(node, expression)));
    }

    @Test
    void preAllocatedNodesAskForNothing() throws SQLException {
        String node = enroll(Map.of("server_hardware_uri", hardware, "dynamic_allocation", false));
        conductor.drive(node, "manage", "manageable");
        conductor.drive(node, "provide", "available");
        assertEquals("pre-allocated", conductor.column(node, "driver_internal_info->>'oneview_profile'"));
        assertTrue(kafka.<AllocationRequest>readAll(Topic.ALLOCATION_REQUESTS.topicName(), Duration.ofSeconds(5)).stream()
                .noneMatch(r -> r.key().equals(node)));
    }

    @Test
    void aOneViewNodeWithoutServerHardwareFailsVerification() throws SQLException {
        String node = enroll(Map.of());
        assertEquals(202, conductor.provision(node, "manage").getCode());
        conductor.awaitState(node, "enroll");
        assertTrue(conductor.column(node, "last_error").contains("driver_info.server_hardware_uri is required"));
    }
}
