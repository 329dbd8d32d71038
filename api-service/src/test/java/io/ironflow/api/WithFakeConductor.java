package io.ironflow.api;

import static org.awaitility.Awaitility.await;

import java.time.Duration;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;

/**
 * The set-up of API tests that write: the node table migrated, a {@link FakeConductor} answering intents over the
 * test's real Kafka, and the API ready (only a ready API is sure to read the results of what it sends).
 */
abstract class WithFakeConductor {

    static FakeConductor conductor;

    @ConfigProperty(name = "kafka.bootstrap.servers")
    String bootstrapServers;
    @ConfigProperty(name = "mp.messaging.connector.smallrye-kafka.apicurio.registry.url")
    String registryUrl;
    @ConfigProperty(name = "quarkus.datasource.jdbc.url")
    String jdbcUrl;

    @BeforeEach
    void tableConductorAndReadiness() {
        if (conductor == null) {
            NodeTable.migrate(jdbcUrl);
            conductor = new FakeConductor(bootstrapServers, registryUrl);
        }
        await().atMost(Duration.ofSeconds(60)).until(() -> Api.latest().get("/q/health/ready").statusCode() == 200);
    }

    @AfterAll
    static void stopConductor() throws InterruptedException {
        if (conductor != null) {
            conductor.close();
            conductor = null;
        }
    }
}
