package io.ironflow.deploy.stack;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import org.junit.jupiter.api.Test;

/**
 * The benchmark judges a killed conductor's partitions by the conductors' own Kafka session timeout and heartbeat
 * interval: its constants are the intents channel's settings in conductor-service's application.properties.
 */
class BenchmarkSettingsTest {

    private static final Path CONDUCTOR_PROPERTIES = Path.of(System.getProperty("ironflow.home", "../.."))
            .resolve("conductor-service/src/main/resources/application.properties");

    @Test
    void sessionTimeoutAndHeartbeatAreTheConductorsOwn() throws IOException {
        Properties conductor = new Properties();
        try (Reader reader = Files.newBufferedReader(CONDUCTOR_PROPERTIES)) {
            conductor.load(reader);
        }
        assertEquals(Benchmark.SESSION_TIMEOUT_S * 1000,
                Integer.parseInt(conductor.getProperty("mp.messaging.incoming.node-intents.session.timeout.ms")));
        assertEquals(Benchmark.HEARTBEAT_S * 1000,
                Integer.parseInt(conductor.getProperty("mp.messaging.incoming.node-intents.heartbeat.interval.ms")));
    }
}
