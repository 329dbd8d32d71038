package io.ironflow.schemas;

import static io.ironflow.schemas.KafkaTracingFollowsOpenTelemetry.CONNECTOR_DEFAULT;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfig;
import io.smallrye.config.SmallRyeConfigBuilder;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The connector's tracing default follows the SDK switch, through the config a service builds. */
class KafkaTracingFollowsOpenTelemetryTest {

    private static SmallRyeConfig config(Map<String, String> properties) {
        return new SmallRyeConfigBuilder()
                .addDefaultInterceptors()
                .addDiscoveredInterceptors() // META-INF/services, as a Quarkus service finds it
                .withProfile("test")
                .withSources(new PropertiesConfigSource(properties, "application.properties", 250))
                .build();
    }

    private static boolean tracing(Map<String, String> properties) {
        return config(properties).getValue(CONNECTOR_DEFAULT, Boolean.class);
    }

    @Test
    void offWhileTheSdkIsOff() {
        assertEquals(false, tracing(Map.of("quarkus.otel.sdk.disabled", "true")));
        assertEquals(false, tracing(Map.of("quarkus.otel.sdk.disabled", " TRUE ")));
    }

    @Test
    void onWhenTheSdkIsOnOrNotConfigured() {
        assertEquals(true, tracing(Map.of("quarkus.otel.sdk.disabled", "false")));
        assertEquals(true, tracing(Map.of()));
    }

    @Test
    void followsTheSdkSwitchAsTheProfileAndExpressionsResolveIt() {
        assertEquals(true, tracing(Map.of("quarkus.otel.sdk.disabled", "true", "%test.quarkus.otel.sdk.disabled", "false")));
        assertEquals(true, tracing(Map.of("quarkus.otel.sdk.disabled", "${no.such.switch:false}")));
        assertEquals(false, tracing(Map.of("quarkus.otel.sdk.disabled", "${no.such.switch:true}")));
    }

    @Test
    void aValueSetForTheConnectorOrAChannelWins() {
        assertEquals(true, tracing(Map.of("quarkus.otel.sdk.disabled", "true", CONNECTOR_DEFAULT, "true")));
        SmallRyeConfig config = config(Map.of("quarkus.otel.sdk.disabled", "false",
                "mp.messaging.incoming.node-intents.tracing-enabled", "false"));
        assertEquals(false, config.getValue("mp.messaging.incoming.node-intents.tracing-enabled", Boolean.class));
        assertEquals(true, config.getValue(CONNECTOR_DEFAULT, Boolean.class));
    }
}
