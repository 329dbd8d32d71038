package io.ironflow.deploy.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.ironflow.schemas.CachingAvroDatumProvider;
import io.ironflow.schemas.CachingAvroDatumProviderCustomizer;
import io.smallrye.reactive.messaging.kafka.KafkaClientService;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * What every service with SmallRye Kafka channels promises: each of its consumers and producers reads and writes
 * Avro through {@link CachingAvroDatumProvider} (set by {@link CachingAvroDatumProviderCustomizer}), not
 * Apicurio's provider, which fingerprints the schema again for every record. A module's {@code @QuarkusTest}
 * extends it to run it against that service's own channels.
 */
public abstract class AvroKafkaClientsContract {

    @Inject
    KafkaClientService kafka;

    @Test
    void everyKafkaClientCachesItsAvroReadersAndWriters() {
        List<Map<String, ?>> clients = new ArrayList<>();
        kafka.getConsumerChannels().forEach(channel -> kafka.getConsumers(channel).forEach(c -> clients.add(c.configuration())));
        kafka.getProducerChannels().forEach(channel -> clients.add(kafka.getProducer(channel).configuration()));
        assertFalse(clients.isEmpty(), "the service has Kafka clients");
        for (Map<String, ?> client : clients) {
            assertEquals(CachingAvroDatumProvider.class, client.get(CachingAvroDatumProviderCustomizer.KEY),
                    String.valueOf(client.get("client.id")));
        }
    }
}
