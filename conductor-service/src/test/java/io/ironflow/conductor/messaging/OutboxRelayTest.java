package io.ironflow.conductor.messaging;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.ironflow.conductor.testing.Sql;
import io.ironflow.deploy.testing.IronflowTestInfrastructure;
import io.ironflow.schemas.Topic;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.SqlConnection;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The relay's drain in two round trips: its read takes the relays' lock in the same statement, so a relay that
 * does not get it publishes nothing and ends its transaction; its commit is asynchronous for its own transaction
 * alone, never for the connection's next user (an intent's answer, which must be durable).
 */
@QuarkusTest
@QuarkusTestResource(IronflowTestInfrastructure.class)
class OutboxRelayTest {

    private static final long RELAYS_LOCK = 0x1F10_0B0CL;
    private static final int POOL_SIZE = 20; // Quarkus's default quarkus.datasource.reactive.max-size

    @Inject
    OutboxRelay relay;

    @Inject
    Pool pool;

    @Test
    void whileAnotherRelayHoldsTheLockNothingIsPublishedAndNoTransactionIsLeftOpen() throws Exception {
        String key = UUID.randomUUID().toString();
        try (Connection otherRelay = Sql.connect()) {
            otherRelay.setAutoCommit(false);
            try (Statement lock = otherRelay.createStatement()) {
                lock.execute("SELECT pg_advisory_xact_lock(" + RELAYS_LOCK + ")");
            }
            Sql.insertOutboxRow(key, Topic.NODE_EVENTS.topicName(), "relayed".getBytes(StandardCharsets.UTF_8));
            assertEquals(OutboxRelay.NOT_LOCKED, relay.publishBatch().await().atMost(Duration.ofSeconds(10)));
            assertEquals("1", Sql.query("SELECT count(*) FROM outbox WHERE aggregateid = '" + key + "'"));
            // The drain's transaction ended with it: none of the conductor's sessions is left inside one
            // (the other relay's is this test's own).
            await().atMost(Duration.ofSeconds(10)).until(() -> "0".equals(Sql.query("SELECT count(*) FROM pg_stat_activity"
                    + " WHERE state LIKE 'idle in transaction%' AND application_name NOT LIKE 'PostgreSQL JDBC%'")));
            otherRelay.rollback();
        }
        // the lock released, the row goes out (this drain's or the timer's)
        relay.publishBatch().await().atMost(Duration.ofSeconds(30));
        await().atMost(Duration.ofSeconds(10)).until(() -> "0".equals(Sql.query("SELECT count(*) FROM outbox WHERE aggregateid = '" + key + "'")));
    }

    @Test
    void theAsynchronousCommitIsTheDrainsAloneNotItsConnections() throws Exception {
        // The tests' PostgreSQL is not durable (synchronous_commit off for all): every connection of the pool is
        // set to on first, so that a drain which changed its connection's setting, not its transaction's, shows.
        assertEquals(List.of("on"), onEveryConnection("SET synchronous_commit = on", "SHOW synchronous_commit"));
        Sql.insertOutboxRow(UUID.randomUUID().toString(), Topic.NODE_EVENTS.topicName(), "relayed".getBytes(StandardCharsets.UTF_8));
        relay.publishBatch().await().atMost(Duration.ofSeconds(30));
        assertEquals(List.of("on"), onEveryConnection("SHOW synchronous_commit"));
    }

    /**
     * What the last of {@code statements} answers on each of the pool's connections (all of them held at once),
     * without repeats.
     */
    private List<String> onEveryConnection(String... statements) {
        List<Uni<SqlConnection>> all = new ArrayList<>();
        for (int i = 0; i < POOL_SIZE; i++) {
            all.add(pool.getConnection());
        }
        List<SqlConnection> held = Uni.join().all(all).andFailFast().await().atMost(Duration.ofSeconds(10));
        try {
            List<String> answers = new ArrayList<>();
            for (SqlConnection connection : held) {
                String answer = null;
                for (String statement : statements) {
                    var rows = connection.query(statement).execute().await().atMost(Duration.ofSeconds(10));
                    answer = rows.size() == 0 ? null : rows.iterator().next().getString(0);
                }
                answers.add(answer);
            }
            return answers.stream().distinct().toList();
        } finally {
            held.forEach(connection -> connection.closeAndAwait());
        }
    }
}
