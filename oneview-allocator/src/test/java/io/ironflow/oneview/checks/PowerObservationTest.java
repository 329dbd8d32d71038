package io.ironflow.oneview.checks;

import static io.ironflow.oneview.OneViewAdmin.get;
import static io.ironflow.oneview.OneViewAdmin.hardwareUri;
import static io.ironflow.oneview.OneViewAdmin.oneView;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.ironflow.deploy.testing.IronflowTestInfrastructure;
import io.ironflow.deploy.testing.KafkaTestClient;
import io.ironflow.deploy.testing.OneViewSimulatorProcess;
import io.ironflow.events.NodeIntent;
import io.ironflow.events.NodeSnapshot;
import io.ironflow.events.ObserveServerHardware;
import io.ironflow.schemas.Topic;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The periodic pass reports OneView's power of a node's hardware to the conductor (power sync): a node whose
 * snapshot says "power on" while the simulator's server hardware is Off gets an ObserveServerHardware with
 * "power off"; once the snapshot agrees, nothing more is sent. Real Kafka, the simulator over HTTP.
 */
@QuarkusTest
@QuarkusTestResource(IronflowTestInfrastructure.class)
@QuarkusTestResource(OneViewSimulatorProcess.class)
class PowerObservationTest {

    private static KafkaTestClient kafka;

    @Inject
    PeriodicChecks checks;

    @Inject
    @io.smallrye.common.annotation.Identifier("node-state-rebalance")
    NodeView view;

    @BeforeAll
    static void kafka() {
        kafka = KafkaTestClient.ofTestConfig();
    }

    @AfterAll
    static void close() {
        kafka.close();
    }

    private void publish(String node, String hardware, String powerState, long revision) {
        kafka.send(Topic.NODE_STATE.topicName(), node, NodeSnapshot.newBuilder()
                .setUuid(node).setRevision(revision).setDriver("oneview").setProvisionState("active")
                .setDriverInfo("{\"server_hardware_uri\": \"" + hardware + "\"}")
                .setPowerState(powerState).setCreatedAt(Instant.now()).build());
        Awaitility.await().atMost(Duration.ofSeconds(60)).until(() -> view.nodes().stream()
                .anyMatch(n -> n.uuid().equals(node) && java.util.Objects.equals(n.powerState(), powerState)));
    }

    private static List<ObserveServerHardware> observations(String node) {
        return kafka.<NodeIntent>readAll(Topic.NODE_INTENTS.topicName(), Duration.ofSeconds(5)).stream()
                .filter(r -> r.key().equals(node)).map(ConsumerRecord::value)
                .filter(i -> i.getCommand() instanceof ObserveServerHardware)
                .map(i -> (ObserveServerHardware) i.getCommand()).toList();
    }

    @Test
    void oneViewsPowerIsReportedWhenIronflowSaysOtherwiseAndOnlyThen() {
        String node = UUID.randomUUID().toString();
        String hardware = hardwareUri(9);
        oneView().contentType("application/json").body(Map.of("powerState", "Off", "powerControl", "PressAndHold"))
                .put(hardware + "/powerState").then().statusCode(202);
        Awaitility.await().until(() -> get(hardware).getString("powerState").equals("Off"));
        assertNull(get(hardware).getString("serverProfileUri"), "free hardware");

        publish(node, hardware, "power on", 1);
        checks.run();
        List<ObserveServerHardware> seen = observations(node);
        assertEquals(1, seen.size(), seen.toString());
        assertEquals("power off", seen.get(0).getPowerState(), "OneView's Off in Ironic's words");
        assertEquals(hardware, seen.get(0).getServerHardwareUri());
        assertNull(seen.get(0).getServerProfileUri());

        // The conductor took it (the snapshot now says power off, the profile fact is recorded): nothing to report.
        publish(node, hardware, "power off", 2);
        checks.run();
        assertEquals(1, observations(node).size(), "in agreement: no observation sent");

        // A OneView user powers it on behind Ironflow's back: reported at the next pass.
        oneView().contentType("application/json").body(Map.of("powerState", "On", "powerControl", "MomentaryPress"))
                .put(hardware + "/powerState").then().statusCode(202);
        Awaitility.await().until(() -> get(hardware).getString("powerState").equals("On"));
        checks.run();
        seen = observations(node);
        assertEquals(2, seen.size(), seen.toString());
        assertEquals("power on", seen.get(1).getPowerState());
    }
}
