package io.ironflow.schemas;

import io.smallrye.config.ConfigSourceInterceptor;
import io.smallrye.config.ConfigSourceInterceptorContext;
import io.smallrye.config.ConfigValue;
import io.smallrye.config.Priorities;
import jakarta.annotation.Priority;

/**
 * The Kafka connector traces records exactly when OpenTelemetry's SDK is on: its {@code tracing-enabled} default
 * (every channel's unless the channel sets its own) is the opposite of {@code quarkus.otel.sdk.disabled}, so the
 * README's one switch ({@code QUARKUS_OTEL_SDK_DISABLED=false}) turns on the records' spans too. With the SDK off
 * (the default) the connector would still extract, start and attach a no-op span context for every record and
 * copy it into the MDC: 2-4 % of the conductor's and the API's CPU, for spans nobody exports. A value set for
 * the connector or a channel wins; a service without {@code quarkus.otel.sdk.disabled} keeps the connector's own
 * default (on). Registered through {@code META-INF/services}.
 */
@Priority(Priorities.APPLICATION)
public final class KafkaTracingFollowsOpenTelemetry implements ConfigSourceInterceptor {

    static final String CONNECTOR_DEFAULT = "mp.messaging.connector.smallrye-kafka.tracing-enabled";
    static final String SDK_DISABLED = "quarkus.otel.sdk.disabled";

    @Override
    public ConfigValue getValue(ConfigSourceInterceptorContext context, String name) {
        ConfigValue value = context.proceed(name);
        if (value != null || !CONNECTOR_DEFAULT.equals(name)) {
            return value;
        }
        ConfigValue sdkDisabled = context.proceed(SDK_DISABLED);
        boolean tracing = sdkDisabled == null || !Boolean.parseBoolean(sdkDisabled.getValue().trim());
        return ConfigValue.builder().withName(name).withValue(Boolean.toString(tracing))
                .withConfigSourceName(getClass().getSimpleName()).build();
    }
}
