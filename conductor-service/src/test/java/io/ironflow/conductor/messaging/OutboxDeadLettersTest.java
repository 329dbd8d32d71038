package io.ironflow.conductor.messaging;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ironflow.conductor.testing.Sql;
import io.ironflow.deploy.testing.IronflowTestInfrastructure;
import io.ironflow.deploy.testing.KafkaTestClient;
import io.ironflow.schemas.Topic;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * A record the broker can never take must not stop the outbox: retried, it would fail its batch, and every batch
 * after it, for ever (every intent's answer with them: the API would answer 503 to every write). The relay moves
 * it to outbox_dead_letters with the reason and publishes what follows it.
 */
@QuarkusTest
@QuarkusTestResource(IronflowTestInfrastructure.class)
class OutboxDeadLettersTest {

    @Inject
    OutboxRelay relay;

    @Test
    void aRecordTheBrokerCanNeverTakeIsDeadLetteredAndTheRecordsAfterItGoOut() throws Exception {
        String tooLarge = UUID.randomUUID().toString();
        String unknownTopic = UUID.randomUUID().toString();
        String after = UUID.randomUUID().toString();
        try (Connection c = Sql.connect(); PreparedStatement row = c.prepareStatement("INSERT INTO outbox"
                + " (id, aggregatetype, aggregateid, type, payload, created_at) VALUES (?, 'node', ?, ?, ?, now())")) {
            // larger than the producer's max.request.size (1 MiB): a node grown by many large PATCHes
            insert(row, tooLarge, Topic.NODE_STATE.topicName(), new byte[1_100_000]);
            insert(row, unknownTopic, "ironflow.no-such-topic", new byte[] {0});
            insert(row, after, Topic.NODE_EVENTS.topicName(), "after".getBytes(StandardCharsets.UTF_8));
        }
        relay.wakeUp();
        try (KafkaTestClient kafka = KafkaTestClient.ofTestConfig()) {
            kafka.readRaw(Topic.NODE_EVENTS.topicName(), Duration.ofSeconds(30),
                    records -> records.stream().anyMatch(r -> after.equals(r.key())));
        }
        String ours = "('" + tooLarge + "', '" + unknownTopic + "', '" + after + "')";
        await().atMost(Duration.ofSeconds(10)).until(() -> "0".equals(Sql.query("SELECT count(*) FROM outbox WHERE aggregateid IN " + ours)));
        String tooLargeReason = Sql.query("SELECT reason FROM outbox_dead_letters WHERE aggregateid = '" + tooLarge + "'");
        assertTrue(tooLargeReason != null && tooLargeReason.contains("RecordTooLargeException"), tooLargeReason);
        assertTrue(Sql.query("SELECT length(payload) FROM outbox_dead_letters WHERE aggregateid = '" + tooLarge + "'")
                .equals("1100000"), "kept whole");
        String unknownReason = Sql.query("SELECT reason FROM outbox_dead_letters WHERE aggregateid = '" + unknownTopic + "'");
        assertTrue(unknownReason != null && unknownReason.contains("does not publish to ironflow.no-such-topic"), unknownReason);
        assertTrue("0".equals(Sql.query("SELECT count(*) FROM outbox_dead_letters WHERE aggregateid = '" + after + "'")));
    }

    private static void insert(PreparedStatement row, String key, String type, byte[] payload) throws Exception {
        row.setObject(1, UUID.randomUUID());
        row.setString(2, key);
        row.setString(3, type);
        row.setBytes(4, payload);
        row.executeUpdate();
    }
}
