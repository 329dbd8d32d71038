package io.ironflow.schemas;

import io.smallrye.reactive.messaging.ClientCustomizer;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Map;
import org.eclipse.microprofile.config.Config;

/**
 * Gives every Kafka client of every service the {@link CachingAvroDatumProvider}, as a class rather than its
 * name. Apicurio resolves a name with its own class loader: under Quarkus's test class loaders that loader finds
 * a second copy of this module's classes on the class path, one not assignable to the provider interface the
 * serde checks, and the service failed to start; the class handed here is the application's own. A channel that
 * names a provider of its own keeps it.
 */
@ApplicationScoped
public class CachingAvroDatumProviderCustomizer implements ClientCustomizer<Map<String, Object>> {

    public static final String KEY = "apicurio.registry.avro-datum-provider";

    @Override
    public Map<String, Object> customize(String channel, Config channelConfig, Map<String, Object> config) {
        config.putIfAbsent(KEY, CachingAvroDatumProvider.class);
        return config;
    }
}
