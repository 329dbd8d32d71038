package io.ironflow.oneview.allocation;

import static io.ironflow.oneview.OneViewAdmin.callsSince;
import static io.ironflow.oneview.OneViewAdmin.fault;
import static io.ironflow.oneview.OneViewAdmin.get;
import static io.ironflow.oneview.OneViewAdmin.hardwareUri;
import static io.ironflow.oneview.OneViewAdmin.lastCall;
import static io.ironflow.oneview.OneViewAdmin.oneView;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.awaitility.Awaitility.await;

import io.ironflow.deploy.testing.IronflowTestInfrastructure;
import io.ironflow.deploy.testing.KafkaTestClient;
import io.ironflow.deploy.testing.OneViewSimulatorProcess;
import io.ironflow.events.AllocationAction;
import io.ironflow.events.AllocationPurpose;
import io.ironflow.events.AllocationRequest;
import io.ironflow.events.AllocationResult;
import io.ironflow.events.NodeIntent;
import io.ironflow.events.UpdateNode;
import io.ironflow.oneview.OneViewAdmin;
import io.ironflow.oneview.client.OneViewClient;
import jakarta.inject.Inject;
import io.ironflow.schemas.Topic;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The allocator as the conductor uses it: allocation requests on real Kafka, answered on allocation-results,
 * against the OneView simulator over HTTP. Each test takes its own generated server hardware: bays 1-10 and 111-120
 * one per test, 11-110 the hundred-node test's (whose 101-103 PreAllocationMigrationTest takes after it).
 */
@QuarkusTest
@QuarkusTestResource(IronflowTestInfrastructure.class)
@QuarkusTestResource(OneViewSimulatorProcess.class)
class AllocationRequestsTest {

    private static final String TEMPLATE = "/rest/server-profile-templates/spt-bl460c-ironic";
    private static KafkaTestClient kafka;
    private static KafkaTestClient.Follower<AllocationResult> allocationResults;

    @BeforeAll
    static void kafka() {
        kafka = KafkaTestClient.ofTestConfig();
        allocationResults = kafka.follow(Topic.ALLOCATION_RESULTS.topicName());
    }

    @AfterAll
    static void close() {
        allocationResults.close();
        kafka.close();
    }

    @AfterEach
    void clearFaults() {
        OneViewAdmin.clearFaults();
    }

    private static AllocationRequest request(String node, AllocationAction action, AllocationPurpose purpose, String hardware,
            String applied) {
        return AllocationRequest.newBuilder().setRequestId(UUID.randomUUID().toString()).setNodeUuid(node)
                .setAction(action).setPurpose(purpose).setServerHardwareUri(hardware).setServerProfileTemplateUri(TEMPLATE)
                .setAppliedServerProfileUri(applied).setRequestedAt(Instant.now())
                .setDeadline(Instant.now().plusSeconds(120)).build();
    }

    private static List<AllocationResult> results(Set<String> requestIds) {
        List<ConsumerRecord<String, AllocationResult>> records = allocationResults.await(Duration.ofSeconds(90),
                read -> read.stream().filter(r -> requestIds.contains(r.value().getRequestId())).count() >= requestIds.size());
        List<AllocationResult> results = records.stream().map(ConsumerRecord::value)
                .filter(r -> requestIds.contains(r.getRequestId())).toList();
        assertEquals(requestIds.size(), results.size(), "one result per request");
        records.stream().filter(r -> requestIds.contains(r.value().getRequestId()))
                .forEach(r -> assertEquals(r.value().getNodeUuid(), r.key(), "keyed by node uuid"));
        return results;
    }

    private static AllocationResult send(AllocationRequest request) {
        kafka.send(Topic.ALLOCATION_REQUESTS.topicName(), request.getNodeUuid(), request);
        return results(Set.of(request.getRequestId())).get(0);
    }

    private static List<String> patches(String node) {
        return kafka.<NodeIntent>readAll(Topic.NODE_INTENTS.topicName(), Duration.ofSeconds(10)).stream()
                .filter(r -> r.key().equals(node)).map(ConsumerRecord::value)
                .peek(i -> assertEquals("oneview-allocator", i.getRequester()))
                .map(i -> ((UpdateNode) i.getCommand()).getPatch()).toList();
    }

    @Test
    void deployAppliesAProfileFromTheTemplateAndRecordsItThenRemovalPowersOffAndDeletesIt() {
        String node = UUID.randomUUID().toString();
        String hardware = hardwareUri(1);
        AllocationResult applied = send(request(node, AllocationAction.APPLY, AllocationPurpose.DEPLOY, hardware, null));
        assertTrue(applied.getSuccess(), applied::toString);
        String profile = applied.getServerProfileUri();
        assertEquals(profile, get(hardware).getString("serverProfileUri"));
        assertEquals("Ironflow Deploy [" + node + "]", get(profile).getString("name"));
        assertTrue(ProfileMark.isFor(get(profile).getString("description"), node), "signed for its node");
        assertEquals("", get(profile).getString("serverProfileTemplateUri"), "detached from the template");
        assertEquals(List.of("[{\"op\":\"add\",\"path\":\"/driver_info/applied_server_profile_uri\",\"value\":\"" + profile + "\"}]"),
                patches(node));

        // Asked again with the field recorded: Ironflow's profile is reused, nothing is created.
        long before = lastCall();
        AllocationResult again = send(request(node, AllocationAction.APPLY, AllocationPurpose.DEPLOY, hardware, profile));
        assertTrue(again.getSuccess());
        assertEquals(profile, again.getServerProfileUri());
        assertTrue(callsSince(before).stream().noneMatch(c -> c.get("method").equals("POST")
                && c.get("path").equals("/rest/server-profiles")));

        // The server runs (it was deployed); removal powers it off first, then deletes the profile.
        oneView().contentType("application/json").body(Map.of("powerState", "On")).put(hardware + "/powerState")
                .then().statusCode(202);
        org.awaitility.Awaitility.await().until(() -> get(hardware).getString("powerState").equals("On"));
        before = lastCall();
        AllocationResult removed = send(request(node, AllocationAction.REMOVE, AllocationPurpose.CLEANING, hardware, profile));
        assertTrue(removed.getSuccess(), removed::toString);
        assertNull(get(hardware).getString("serverProfileUri"));
        assertEquals("Off", get(hardware).getString("powerState"));
        assertEquals("power off", removed.getPowerState(), "the result says where the removal left the power");
        List<String> mutations = callsSince(before).stream()
                .filter(c -> !c.get("method").equals("GET") && !c.get("path").equals("/rest/login-sessions")) // the test's own logins
                .map(c -> c.get("method") + " " + c.get("path")).toList();
        assertEquals(List.of("PUT " + hardware + "/powerState", "DELETE " + profile), mutations);
        assertEquals(2, patches(node).size());
        assertEquals("[{\"op\":\"remove\",\"path\":\"/driver_info/applied_server_profile_uri\"}]", patches(node).get(1));
        String metrics = io.restassured.RestAssured.given().get("/q/metrics").asString();
        for (String action : List.of("APPLY", "REMOVE")) {
            assertTrue(metrics.contains("ironflow_oneview_allocation_duration_seconds_count{action=\"" + action + "\",result=\"succeeded\"}"),
                    "no duration of " + action + " on /q/metrics");
        }
    }

    @Test
    void hardwareHeldByAOneViewUserIsRefusedNamingTheHolderAndNeverRemoved() {
        String node = UUID.randomUUID().toString();
        String hardware = hardwareUri(2);
        String theirs = OneViewAdmin.takeAsOneViewUser(hardware, "SAP HANA prod");
        try {
            AllocationResult result = send(request(node, AllocationAction.APPLY, AllocationPurpose.CLEANING, hardware, null));
            assertFalse(result.getSuccess());
            assertTrue(result.getInUseByOneView());
            assertTrue(result.getErrorMessage().contains("in use by OneView") && result.getErrorMessage().contains("SAP HANA prod"),
                    result.getErrorMessage());
            // last_error shows this message to the node's readers: a profile URI there is what a copied
            // applied_server_profile_uri needs to have the profile deleted (issue 58)
            assertFalse(result.getErrorMessage().contains(theirs), result.getErrorMessage());
            AllocationResult removal = send(request(node, AllocationAction.REMOVE, AllocationPurpose.CLEANING, hardware, null));
            assertTrue(removal.getSuccess());
            assertEquals(theirs, get(hardware).getString("serverProfileUri"), "a OneView user's profile stays");
            assertTrue(patches(node).isEmpty());
        } finally {
            OneViewAdmin.freeAsOneViewUser(hardware);
        }
    }

    @Test
    void anExpiredSessionLogsInAgainOnceAndFiveHundredsAreRetried() {
        String node = UUID.randomUUID().toString();
        String hardware = hardwareUri(3);
        fault(Map.of("type", "expire-sessions"));
        fault(Map.of("type", "status", "status", 503, "count", 2, "method", "POST", "path", "/rest/server-profiles"));
        long before = lastCall();
        AllocationResult result = send(request(node, AllocationAction.APPLY, AllocationPurpose.CLEANING, hardware, null));
        assertTrue(result.getSuccess(), result::toString);
        List<Map<String, Object>> calls = callsSince(before);
        int unauthorized = indexOf(calls, c -> (int) c.get("status") == 401);
        assertTrue(unauthorized >= 0, "the expired session was refused");
        assertEquals("/rest/login-sessions", calls.get(unauthorized + 1).get("path"), "then a login");
        assertEquals(1, calls.stream().filter(c -> (int) c.get("status") == 401).count(), "one 401, one new login");
        assertEquals(3, calls.stream().filter(c -> c.get("method").equals("POST") && c.get("path").equals("/rest/server-profiles"))
                .count(), "two 503s, then the POST that worked");
        send(request(node, AllocationAction.REMOVE, AllocationPurpose.CLEANING, hardware, result.getServerProfileUri()));
    }

    @Test
    void aFiveHundredWithAnHtmlPageIsRetriedAsAnyFiveHundred() {
        String node = UUID.randomUUID().toString();
        String hardware = hardwareUri(8);
        // a proxy in front of the appliance, or the appliance restarting, answers with a page, not OneView's JSON
        fault(Map.of("type", "status", "status", 502, "html", true, "count", 2, "method", "POST", "path", "/rest/server-profiles"));
        long before = lastCall();
        AllocationResult result = send(request(node, AllocationAction.APPLY, AllocationPurpose.CLEANING, hardware, null));
        assertTrue(result.getSuccess(), result::toString);
        assertEquals(3, callsSince(before).stream().filter(c -> c.get("method").equals("POST")
                && c.get("path").equals("/rest/server-profiles")).count(), "two pages, then the POST that worked");
        send(request(node, AllocationAction.REMOVE, AllocationPurpose.CLEANING, hardware, result.getServerProfileUri()));
    }

    @Test
    void aTaskThatEndsInErrorFailsTheAllocationWithOneViewsMessage() {
        String node = UUID.randomUUID().toString();
        String hardware = hardwareUri(4);
        fault(Map.of("type", "fail-task", "task", "Create", "message", "Firmware baseline SPP-2026.09 is not in the repository."));
        AllocationResult result = send(request(node, AllocationAction.APPLY, AllocationPurpose.DEPLOY, hardware, null));
        assertFalse(result.getSuccess());
        assertFalse(result.getInUseByOneView());
        assertTrue(result.getErrorMessage().endsWith("Firmware baseline SPP-2026.09 is not in the repository."), result.getErrorMessage());
        assertNull(get(hardware).getString("serverProfileUri"));
        assertTrue(patches(node).isEmpty());
    }

    /**
     * A DELETE the appliance carried out but whose answer was lost is retried (after OneView's 503s here) when the
     * profile is gone already, and OneView answers 404: the hardware is free, so the removal succeeded.
     */
    @Test
    void aProfileWhoseDeletionAnswerWasLostIsRemovedNotFailed() {
        String node = UUID.randomUUID().toString();
        String hardware = hardwareUri(113);
        AllocationResult applied = send(request(node, AllocationAction.APPLY, AllocationPurpose.CLEANING, hardware, null));
        assertTrue(applied.getSuccess(), applied::toString);
        fault(Map.of("type", "lose-answer", "method", "DELETE", "path", "/rest/server-profiles"));
        fault(Map.of("type", "status", "status", 503, "count", 3, "method", "DELETE", "path", "/rest/server-profiles"));
        long before = lastCall();
        AllocationResult removed = send(request(node, AllocationAction.REMOVE, AllocationPurpose.CLEANING, hardware,
                applied.getServerProfileUri()));
        assertTrue(removed.getSuccess(), removed::toString);
        assertNull(get(hardware).getString("serverProfileUri"));
        assertTrue(callsSince(before).stream().filter(c -> c.get("method").equals("DELETE")).count() >= 5,
                "the lost DELETE, three 503s, and the 404: " + callsSince(before));
    }

    /**
     * A POST the appliance carried out but whose answer was lost (a dropped connection, a timeout) is retried and
     * refused as a duplicate: the profile on the hardware is this node's, so it is adopted once applied, not
     * reported failed or as a OneView user's.
     */
    @Test
    void aProfileWhoseCreationAnswerWasLostIsAdoptedNotFailed() {
        String node = UUID.randomUUID().toString();
        String hardware = hardwareUri(10);
        fault(Map.of("type", "lose-answer", "method", "POST", "path", "/rest/server-profiles"));
        long before = lastCall();
        AllocationResult result = send(request(node, AllocationAction.APPLY, AllocationPurpose.DEPLOY, hardware, null));
        assertTrue(result.getSuccess(), result::toString);
        assertFalse(result.getInUseByOneView());
        assertEquals(get(hardware).getString("serverProfileUri"), result.getServerProfileUri());
        assertEquals("ProfileApplied", get(hardware).getString("state"), "adopted once applied");
        assertEquals(2, callsSince(before).stream().filter(c -> c.get("method").equals("POST")
                && c.get("path").equals("/rest/server-profiles")).count(), "the lost one and its refused retry");
        assertEquals(List.of("[{\"op\":\"add\",\"path\":\"/driver_info/applied_server_profile_uri\",\"value\":\""
                + result.getServerProfileUri() + "\"}]"), patches(node));
        assertTrue(send(request(node, AllocationAction.REMOVE, AllocationPurpose.DEPLOY, hardware, result.getServerProfileUri()))
                .getSuccess());
    }

    /**
     * Every request carries the appliance's administrator session, and a node's server_hardware_uri is text a
     * project member may set: one that leads anywhere but the appliance's REST API is refused, and nothing is sent.
     */
    @Test
    void aServerHardwareUriOffTheApplianceIsRefusedAndTheSessionNeverLeaves() throws Exception {
        com.sun.net.httpserver.HttpServer elsewhere = com.sun.net.httpserver.HttpServer.create(
                new java.net.InetSocketAddress("127.0.0.1", 0), 0);
        List<String> seen = java.util.Collections.synchronizedList(new ArrayList<>());
        elsewhere.createContext("/", exchange -> {
            seen.add(exchange.getRequestURI() + " auth=" + exchange.getRequestHeaders().getFirst("auth"));
            exchange.sendResponseHeaders(200, -1);
            exchange.close();
        });
        elsewhere.start();
        try {
            String there = "127.0.0.1:" + elsewhere.getAddress().getPort();
            String appliance = OneViewAdmin.url();
            for (String uri : List.of("http://" + there + "/rest/server-hardware/x", "//" + there + "/rest/server-hardware/x",
                    "/rest/../admin/calls", "/admin/calls", appliance.replace("http://", "http://user@") + "/rest/server-hardware/x",
                    "/rest/server-hardware/a b")) {
                String node = UUID.randomUUID().toString();
                AllocationResult refused = send(request(node, AllocationAction.APPLY, AllocationPurpose.DEPLOY, uri, null));
                assertFalse(refused.getSuccess(), uri);
                assertFalse(refused.getInUseByOneView(), uri);
                assertTrue(refused.getErrorMessage().contains("not a URI"), refused.getErrorMessage());
                assertFalse(send(power(node, uri, "power off")).getSuccess(), uri);
            }
            assertEquals(List.of(), seen, "nothing reached the other server");
        } finally {
            elsewhere.stop(0);
        }
    }

    @Inject
    OneViewClient client;

    @Test
    void aRedeliveredRequestAdoptsTheProfileItsCrashedAllocatorCreatedInsteadOfCallingItOneViews() {
        String node = UUID.randomUUID().toString();
        String hardware = hardwareUri(6);
        AllocationRequest request = request(node, AllocationAction.APPLY, AllocationPurpose.DEPLOY, hardware, null);
        // The crash: an allocator created the profile for this request exactly as apply does, then died before it
        // recorded the field or answered. OneView holds a profile the node does not know about.
        String orphan = client.createProfileFromTemplate(TEMPLATE, hardware, "Ironflow Deploy [" + node + "]",
                ProfileMark.describe(node, request.getRequestId()), null);
        assertEquals(orphan, get(hardware).getString("serverProfileUri"));

        long before = lastCall();
        AllocationResult redelivered = send(request); // Kafka redelivers the uncommitted request to the next allocator
        assertTrue(redelivered.getSuccess(), redelivered::toString);
        assertEquals(orphan, redelivered.getServerProfileUri(), "its own profile, adopted");
        assertTrue(callsSince(before).stream().noneMatch(c -> c.get("method").equals("POST")
                && c.get("path").equals("/rest/server-profiles")), "nothing created twice");
        assertEquals(List.of("[{\"op\":\"add\",\"path\":\"/driver_info/applied_server_profile_uri\",\"value\":\"" + orphan + "\"}]"),
                patches(node), "the field the crash lost is recorded");

        // Another node's request finds the same profile OneView's: the mark names a node, not Ironflow at large.
        AllocationResult other = send(request(UUID.randomUUID().toString(), AllocationAction.APPLY, AllocationPurpose.DEPLOY,
                hardware, null));
        assertFalse(other.getSuccess());
        assertTrue(other.getInUseByOneView(), other::toString);

        // Removal with the field still unknown to the request (the crash) removes the adopted profile too.
        AllocationResult removed = send(request(node, AllocationAction.REMOVE, AllocationPurpose.CLEANING, hardware, null));
        assertTrue(removed.getSuccess(), removed::toString);
        assertNull(get(hardware).getString("serverProfileUri"));
    }

    /**
     * A rebalance (a rolling update, another allocator joining) revokes the partition of a node whose POWER waits
     * in its lane behind a long APPLY. The partition's records were not committed, so they are delivered again; the
     * copy queued under the revoked assignment does not run as well: OneView gets the power change once, not twice
     * (nor, for a REMOVE, after the deploy the new holder went on with).
     */
    @Test
    void aRequestQueuedWhenItsPartitionIsRevokedRunsOnceNotAgainFromTheOldAssignment() {
        // The joiner must take the node's partition: were it left to the allocator, the allocator would take the
        // uncommitted records again at once and answer them (rightly) once per assignment. The range assignor
        // gives the member whose id sorts last (the joiner's client.id, "~...") the upper half of the partitions.
        String node = nodeInUpperHalfOfPartitions(Topic.ALLOCATION_REQUESTS);
        String hardware = hardwareUri(114);
        // The APPLY outlasts the rebalance, so the POWER is still queued behind it when its partition is revoked
        // (at 2 s, a slow machine's rebalance came after the POWER had run: answered by both assignments).
        fault(Map.of("type", "slow-task", "task", "Create", "millis", 8000));
        AllocationRequest apply = request(node, AllocationAction.APPLY, AllocationPurpose.DEPLOY, hardware, null);
        AllocationRequest powerOn = power(node, hardware, "power on");
        powerOn.setDeadline(Instant.now().plusSeconds(120));
        long before = lastCall();
        kafka.send(Topic.ALLOCATION_REQUESTS.topicName(), node, apply);
        kafka.send(Topic.ALLOCATION_REQUESTS.topicName(), node, powerOn);
        org.awaitility.Awaitility.await("the APPLY reached OneView").atMost(Duration.ofSeconds(30)).until(() -> callsSince(before)
                .stream().anyMatch(c -> c.get("method").equals("POST") && c.get("path").equals("/rest/server-profiles")));

        Map<String, Object> joiner = Map.of(org.apache.kafka.clients.consumer.ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                org.eclipse.microprofile.config.ConfigProvider.getConfig().getValue("kafka.bootstrap.servers", String.class),
                org.apache.kafka.clients.consumer.ConsumerConfig.GROUP_ID_CONFIG, "ironflow-oneview-allocator",
                org.apache.kafka.clients.consumer.ConsumerConfig.CLIENT_ID_CONFIG, "~rebalance-joiner",
                org.apache.kafka.clients.consumer.ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false",
                org.apache.kafka.clients.consumer.ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG,
                org.apache.kafka.common.serialization.ByteArrayDeserializer.class.getName(),
                org.apache.kafka.clients.consumer.ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG,
                org.apache.kafka.common.serialization.ByteArrayDeserializer.class.getName());
        try (var other = new org.apache.kafka.clients.consumer.KafkaConsumer<byte[], byte[]>(joiner)) {
            other.subscribe(List.of(Topic.ALLOCATION_REQUESTS.topicName()));
            org.awaitility.Awaitility.await("a second member joined the allocators' group").atMost(Duration.ofSeconds(60))
                    .until(() -> {
                        other.poll(Duration.ofMillis(200)); // takes part in the rebalance; commits nothing
                        return !other.assignment().isEmpty();
                    });
            var partition = new org.apache.kafka.common.TopicPartition(Topic.ALLOCATION_REQUESTS.topicName(),
                    partitionOf(node, Topic.ALLOCATION_REQUESTS.partitions()));
            assertTrue(other.assignment().contains(partition), "the joiner holds the node's " + partition + ": " + other.assignment());
            assertTrue(powerCalls(before).stream().noneMatch(c -> c.startsWith(hardware + "/powerState")),
                    "the POWER ran before its partition was revoked: the APPLY must outlast the rebalance");
        } // leaving: the allocator gets every partition back, and the uncommitted records again

        java.util.function.Function<String, Long> answers = id -> allocationResults.await(Duration.ofSeconds(1), r -> false)
                .stream().filter(r -> r.value().getRequestId().equals(id)).count();
        org.awaitility.Awaitility.await("both answered").atMost(Duration.ofSeconds(90))
                .until(() -> answers.apply(apply.getRequestId()) >= 1 && answers.apply(powerOn.getRequestId()) >= 1);
        org.awaitility.Awaitility.await("no second answer from the revoked assignment").during(Duration.ofSeconds(5))
                .atMost(Duration.ofSeconds(30)).until(() -> answers.apply(powerOn.getRequestId()) == 1);
        assertEquals(1, powerCalls(before).stream().filter(c -> c.startsWith(hardware + "/powerState")).count(),
                "OneView powered the server on once: " + powerCalls(before));
        assertEquals("On", get(hardware).getString("powerState"));
    }

    /** A node uuid whose partition of {@code topic} (the producer's: murmur2 of the key) is in its upper half. */
    private static String nodeInUpperHalfOfPartitions(Topic topic) {
        while (true) {
            String node = UUID.randomUUID().toString();
            if (partitionOf(node, topic.partitions()) >= (topic.partitions() + 1) / 2) {
                return node;
            }
        }
    }

    private static int partitionOf(String key, int partitions) {
        byte[] bytes = key.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        return org.apache.kafka.common.utils.Utils.toPositive(org.apache.kafka.common.utils.Utils.murmur2(bytes)) % partitions;
    }

    /**
     * The conductor's outbox publishes at least once: a request published again (its relay died between the
     * broker's acknowledgement and deleting its rows) is answered again, and OneView reboots the server once.
     */
    @Test
    void aRequestPublishedTwiceIsAnsweredTwiceAndRunOnce() {
        String node = UUID.randomUUID().toString();
        String hardware = hardwareUri(115);
        AllocationRequest reboot = power(node, hardware, "rebooting");
        long before = lastCall();
        kafka.send(Topic.ALLOCATION_REQUESTS.topicName(), node, reboot);
        kafka.send(Topic.ALLOCATION_REQUESTS.topicName(), node, reboot);
        List<ConsumerRecord<String, AllocationResult>> answers = allocationResults.await(Duration.ofSeconds(60),
                read -> read.stream().filter(r -> r.value().getRequestId().equals(reboot.getRequestId())).count() >= 2);
        List<AllocationResult> both = answers.stream().map(ConsumerRecord::value)
                .filter(r -> r.getRequestId().equals(reboot.getRequestId())).toList();
        assertEquals(2, both.size(), "each copy is answered");
        assertTrue(both.stream().allMatch(AllocationResult::getSuccess), both::toString);
        assertEquals(List.of(hardware + "/powerState", hardware + "/powerState"), powerCalls(before).stream()
                .map(c -> c.substring(0, c.indexOf(' '))).toList(), "off and on once: " + powerCalls(before));
    }

    private static AllocationRequest power(String node, String hardware, String target) {
        AllocationRequest r = request(node, AllocationAction.POWER, AllocationPurpose.POWER, hardware, null);
        r.setPowerTarget(target);
        r.setDeadline(Instant.now().plusSeconds(30));
        return r;
    }

    private static List<String> powerCalls(long since) {
        return callsSince(since).stream().filter(c -> c.get("method").equals("PUT")).map(c -> c.get("path") + " " + c.get("body"))
                .toList();
    }

    @Test
    void powerComesFromOneViewAndItsFailuresCarryOneViewsMessage() {
        String node = UUID.randomUUID().toString();
        String hardware = hardwareUri(7);
        long before = lastCall();
        AllocationResult on = send(power(node, hardware, "power on"));
        assertTrue(on.getSuccess(), on::toString);
        assertEquals(AllocationAction.POWER, on.getAction());
        assertEquals("On", get(hardware).getString("powerState"), "the task was followed to its end");
        assertEquals("power on", on.getPowerState());
        List<String> puts = powerCalls(before);
        assertEquals(1, puts.size(), puts.toString());
        assertTrue(puts.get(0).startsWith(hardware + "/powerState") && puts.get(0).contains("MomentaryPress"), puts.toString());

        before = lastCall();
        assertTrue(send(power(node, hardware, "rebooting")).getSuccess());
        puts = powerCalls(before);
        assertEquals(2, puts.size(), "off with PressAndHold, then on: " + puts);
        assertTrue(puts.get(0).contains("PressAndHold") && puts.get(1).contains("MomentaryPress"), puts.toString());
        assertEquals("On", get(hardware).getString("powerState"));

        fault(Map.of("type", "fail-task", "task", "Power off", "message", "The iLO of Generated, bay 7 does not respond."));
        AllocationResult off = send(power(node, hardware, "power off"));
        assertFalse(off.getSuccess());
        assertTrue(off.getErrorMessage().endsWith("The iLO of Generated, bay 7 does not respond."), off.getErrorMessage());

        String theirs = OneViewAdmin.takeAsOneViewUser(hardware, "Exchange cluster");
        try {
            before = lastCall();
            AllocationResult refused = send(power(node, hardware, "power off"));
            assertFalse(refused.getSuccess());
            assertTrue(refused.getErrorMessage().contains("in use by OneView"), refused.getErrorMessage());
            assertTrue(powerCalls(before).isEmpty(), "a OneView user's server is not powered by Ironflow");
        } finally {
            OneViewAdmin.freeAsOneViewUser(hardware);
        }
        assertNotNull(theirs);
        assertTrue(patches(node).isEmpty(), "power changes no node field through intents");
    }

    /**
     * The conductor sends a newer power request while an older one is still out (a user's change replacing a
     * pending one): the two reach OneView in the order sent, so the hardware ends in the newer target, even when
     * OneView is slow to answer the older one's first read.
     */
    @Test
    void aNodesRequestsReachOneViewInTheOrderSent() {
        String node = UUID.randomUUID().toString();
        String hardware = hardwareUri(111);
        fault(Map.of("type", "latency", "millis", 1500, "method", "GET", "path", hardware));
        long before = lastCall();
        AllocationRequest on = power(node, hardware, "power on");
        AllocationRequest off = power(node, hardware, "power off");
        kafka.send(Topic.ALLOCATION_REQUESTS.topicName(), node, on);
        kafka.send(Topic.ALLOCATION_REQUESTS.topicName(), node, off);
        assertTrue(results(Set.of(on.getRequestId(), off.getRequestId())).stream().allMatch(AllocationResult::getSuccess));
        List<String> puts = powerCalls(before);
        assertEquals(2, puts.size(), puts.toString());
        assertTrue(puts.get(0).contains("MomentaryPress") && puts.get(1).contains("PressAndHold"), "on, then off: " + puts);
        assertEquals("Off", get(hardware).getString("powerState"), "the newer request wins");
    }

    /**
     * A profile whose task outlasts the request's deadline is not waited for past it: the conductor has given up
     * by then. The answer says so in time, and the profile, applied later, is the node's own for the next request.
     */
    @Test
    void anApplyIsAnsweredByItsDeadlineAndItsLateProfileIsAdoptedNext() {
        String node = UUID.randomUUID().toString();
        String hardware = hardwareUri(112);
        fault(Map.of("type", "slow-task", "task", "Create", "millis", 4000));
        AllocationRequest request = request(node, AllocationAction.APPLY, AllocationPurpose.DEPLOY, hardware, null);
        request.setDeadline(Instant.now().plusSeconds(2));
        long start = System.nanoTime();
        AllocationResult late = send(request);
        double took = (System.nanoTime() - start) / 1e9;
        assertFalse(late.getSuccess(), late::toString);
        assertTrue(late.getErrorMessage().contains("did not end within"), late.getErrorMessage());
        assertTrue(took < 6, "answered by its deadline, not the task's end: " + took + " s");

        AllocationResult next = send(request(node, AllocationAction.APPLY, AllocationPurpose.DEPLOY, hardware, null));
        assertTrue(next.getSuccess(), next::toString);
        assertEquals(get(hardware).getString("serverProfileUri"), next.getServerProfileUri(), "the late profile, adopted");
        assertTrue(send(request(node, AllocationAction.REMOVE, AllocationPurpose.DEPLOY, hardware, next.getServerProfileUri()))
                .getSuccess());
    }

    /**
     * A record no allocator can decode is dead-lettered with the decoder's reason, committed although nothing
     * follows it on its partition (else every rebalance would dead-letter it again), and the next request is
     * answered.
     */
    @Test
    void aPoisonRequestIsDeadLetteredCommittedAndTheNextIsAnswered() {
        String poisonKey = UUID.randomUUID().toString();
        RecordMetadata poison = kafka.sendRaw(Topic.ALLOCATION_REQUESTS.topicName(), poisonKey,
                "not avro".getBytes(StandardCharsets.UTF_8));
        ConsumerRecord<String, byte[]> letter = kafka.deadLetter(Topic.ALLOCATION_REQUESTS_DLQ.topicName(), poisonKey,
                Duration.ofSeconds(30));
        assertTrue(new String(letter.headers().lastHeader("dead-letter-reason").value(), StandardCharsets.UTF_8)
                .contains("not an AllocationRequest"));
        assertNotNull(letter.headers().lastHeader("deserialization-failure-reason"), "the decoder's own reason is kept");
        await("the poison record committed").atMost(Duration.ofSeconds(30)).until(() -> kafka.committedOffset(
                "ironflow-oneview-allocator", Topic.ALLOCATION_REQUESTS.topicName(), poison.partition()) > poison.offset());

        // A record that decodes but is no AllocationRequest (an answer framed as another topic's record): the same.
        String wrongTypeKey = UUID.randomUUID().toString();
        kafka.sendRaw(Topic.ALLOCATION_REQUESTS.topicName(), wrongTypeKey, kafka.wrongType(
                AllocationResult.newBuilder().setRequestId(UUID.randomUUID().toString()).setNodeUuid(wrongTypeKey)
                        .setAction(AllocationAction.APPLY).setSuccess(true).setCompletedAt(Instant.now()).build()));
        ConsumerRecord<String, byte[]> wrongType = kafka.deadLetter(Topic.ALLOCATION_REQUESTS_DLQ.topicName(), wrongTypeKey,
                Duration.ofSeconds(30));
        assertTrue(new String(wrongType.headers().lastHeader("dead-letter-reason").value(), StandardCharsets.UTF_8)
                .contains("not an AllocationRequest this allocator can decode: it is a io.ironflow.events.AllocationResult"),
                "the reason names the type expected and the type found");

        String node = UUID.randomUUID().toString();
        AllocationRequest late = request(node, AllocationAction.APPLY, AllocationPurpose.DEPLOY, hardwareUri(5), null);
        late.setDeadline(Instant.now().minusSeconds(1));
        assertFalse(send(late).getSuccess());
    }

    @Test
    void aRequestPastItsDeadlineIsAnsweredWithoutTouchingOneView() {
        String node = UUID.randomUUID().toString();
        AllocationRequest late = request(node, AllocationAction.APPLY, AllocationPurpose.DEPLOY, hardwareUri(5), null);
        late.setDeadline(Instant.now().minusSeconds(1));
        long before = lastCall();
        AllocationResult result = send(late);
        assertFalse(result.getSuccess());
        assertTrue(result.getErrorMessage().contains("after its deadline"));
        assertTrue(callsSince(before).stream().noneMatch(c -> String.valueOf(c.get("path")).contains("9e000000-0000-4000-8000-000000000005")));
    }

    @Test
    void hundredNodesAtOnceGetOneProfileEachAndNoneIsLeftBehind() {
        List<String> nodes = IntStream.range(0, 100).mapToObj(i -> UUID.randomUUID().toString()).toList();
        List<AllocationRequest> applies = new ArrayList<>();
        for (int i = 0; i < nodes.size(); i++) {
            applies.add(request(nodes.get(i), AllocationAction.APPLY, AllocationPurpose.DEPLOY, hardwareUri(i + 11), null));
        }
        long before = lastCall();
        long start = System.nanoTime();
        applies.forEach(r -> kafka.send(Topic.ALLOCATION_REQUESTS.topicName(), r.getNodeUuid(), r));
        List<AllocationResult> applied = results(applies.stream().map(AllocationRequest::getRequestId).collect(Collectors.toSet()));
        System.out.printf("100 profiles applied in %.1f s%n", (System.nanoTime() - start) / 1e9);
        assertTrue(applied.stream().allMatch(AllocationResult::getSuccess), () -> applied.stream().filter(r -> !r.getSuccess()).toList().toString());
        Set<String> profiles = new HashSet<>(applied.stream().map(AllocationResult::getServerProfileUri).toList());
        assertEquals(100, profiles.size(), "one profile per node");
        assertEquals(100, callsSince(before).stream().filter(c -> c.get("method").equals("POST")
                && c.get("path").equals("/rest/server-profiles")).count(), "no profile applied twice");

        Map<String, String> byNode = applied.stream().collect(Collectors.toMap(AllocationResult::getNodeUuid, AllocationResult::getServerProfileUri));
        List<AllocationRequest> removes = applies.stream().map(r -> request(r.getNodeUuid(), AllocationAction.REMOVE,
                AllocationPurpose.CLEANING, r.getServerHardwareUri(), byNode.get(r.getNodeUuid()))).toList();
        removes.forEach(r -> kafka.send(Topic.ALLOCATION_REQUESTS.topicName(), r.getNodeUuid(), r));
        assertTrue(results(removes.stream().map(AllocationRequest::getRequestId).collect(Collectors.toSet())).stream()
                .allMatch(AllocationResult::getSuccess));
        for (AllocationRequest r : applies) {
            assertNull(get(r.getServerHardwareUri()).getString("serverProfileUri"), "none left on " + r.getServerHardwareUri());
        }
        assertNotNull(profiles);
    }

    private static int indexOf(List<Map<String, Object>> calls, java.util.function.Predicate<Map<String, Object>> p) {
        for (int i = 0; i < calls.size(); i++) {
            if (p.test(calls.get(i))) {
                return i;
            }
        }
        return -1;
    }
}
