package io.ironflow.conductor.messaging;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.ironflow.conductor.metrics.ConductorMetrics;
import io.ironflow.conductor.testing.Sql;
import io.ironflow.deploy.testing.IronflowTestInfrastructure;
import io.ironflow.schemas.Topic;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * With several conductors, a relay woken by its own commit may find another conductor's relay holding the lock.
 * That relay publishes only the rows it had read, so the rows committed here would wait for the next tick (a
 * second, for the last answers of a burst): this relay tries again shortly instead. The tick is an hour here, so
 * only the retry can publish the row.
 */
@QuarkusTest
@TestProfile(OutboxRelayLockRetryTest.WithoutTheTick.class)
@QuarkusTestResource(IronflowTestInfrastructure.class)
class OutboxRelayLockRetryTest {

    public static class WithoutTheTick implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("ironflow.conductor.outbox.poll-interval", "1h");
        }
    }

    @Inject
    OutboxRelay relay;

    @Inject
    ConductorMetrics metrics;

    @Test
    void aRelayThatFindsTheLockTakenTriesAgainSoonNotAtTheNextTick() throws Exception {
        String key = UUID.randomUUID().toString();
        String ours = "SELECT count(*) FROM outbox WHERE aggregateid = '" + key + "'";
        try (Connection otherRelay = Sql.connect()) {
            otherRelay.setAutoCommit(false);
            try (Statement lock = otherRelay.createStatement()) {
                lock.execute("SELECT pg_advisory_xact_lock(" + 0x1F10_0B0CL + ")");
            }
            Sql.insertOutboxRow(key, Topic.NODE_EVENTS.topicName(), "retried".getBytes(StandardCharsets.UTF_8));
            double busy = metrics.relayLockBusyCount();
            relay.wakeUp(); // as the commit that wrote the row would
            // tried, found the lock held, and tried again, with no tick (and nothing else) waking it
            await().atMost(Duration.ofSeconds(2)).until(() -> metrics.relayLockBusyCount() >= busy + 2);
            assertEquals("1", Sql.query(ours));
            otherRelay.rollback(); // the other relay's drain ends
        }
        await().atMost(Duration.ofSeconds(5)).until(() -> "0".equals(Sql.query(ours)));
    }
}
