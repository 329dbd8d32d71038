package io.ironflow.conductor.messaging;

import io.apicurio.registry.resolver.ParsedSchema;
import io.apicurio.registry.serde.avro.AvroSerializer;
import io.apicurio.registry.serde.config.SerdeConfig;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.common.annotation.Identifier;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.avro.Schema;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificDatumWriter;
import org.apache.avro.specific.SpecificRecordBase;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigProvider;
import org.jboss.logging.Logger;

/**
 * Frames a record for its topic exactly as the registry's serializer on the Kafka producer would: a prefix (the
 * magic byte and the schema's id in the registry) and the Avro binary of the value. The prefix of each outbox
 * topic is written once, at start-up, by the registry's own serializer (Apicurio, configured from the same
 * {@code apicurio.*} settings as the Kafka channels: the shared {@code kafka.*} ones, the connector's, then the
 * outbox channel's), which finds or registers the topic's schema; it never changes while the conductor runs,
 * since the schemas are compiled in. So framing a record never asks the registry: it runs inside the intent's
 * transaction on an event loop, where a blocking call to the registry could stall every intent. A topic whose
 * prefix could not be had at start-up (registry away) refuses to frame (its intents are answered 503 after their
 * retries) until the relay's next tick, on a worker thread, has looked it up ({@link #lookUpMissing}).
 */
@Singleton
class RegistryFraming {

    private static final Logger LOG = Logger.getLogger(RegistryFraming.class);
    private static final String CONNECTOR = "mp.messaging.connector.smallrye-kafka.";
    private static final String CHANNEL = "mp.messaging.outgoing.outbox.";
    private static final Map<String, byte[]> PREFIXES = new ConcurrentHashMap<>();
    /** One writer per record class: they are thread-safe and cache how to write the schema. */
    private static final ClassValue<SpecificDatumWriter<SpecificRecordBase>> WRITERS = new ClassValue<>() {
        @Override
        protected SpecificDatumWriter<SpecificRecordBase> computeValue(Class<?> type) {
            return new SpecificDatumWriter<>(schemaOf(type));
        }
    };

    /** The settings all the service's Kafka clients share ({@code kafka.*}, {@code KAFKA_*}), as Quarkus gathers them. */
    @Inject
    @Identifier("default-kafka-broker")
    Map<String, Object> kafkaSettings;

    private static volatile Map<String, Object> sharedKafkaSettings = Map.of();

    /** Looks the outbox topics' schemas up before the first intent needs them. */
    void onStart(@Observes StartupEvent event) {
        sharedKafkaSettings = Map.copyOf(kafkaSettings);
        lookUpMissing(Outbox.TOPICS);
    }

    /** {@code value} as it is published on {@code topic}. */
    static byte[] frame(String topic, SpecificRecordBase value) {
        byte[] prefix = PREFIXES.get(topic);
        if (prefix == null) {
            throw new IllegalStateException("the schema of " + topic + " has not been found in the registry yet");
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream(prefix.length + 256);
        out.writeBytes(prefix);
        BinaryEncoder encoder = EncoderFactory.get().directBinaryEncoder(out, null);
        try {
            WRITERS.get(value.getClass()).write(value, encoder);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    /** Looks up the prefix of every topic that has none yet; blocking, so never on an event loop. */
    static void lookUpMissing(Map<String, Outbox.Published> topics) {
        if (PREFIXES.size() == topics.size()) {
            return;
        }
        PrefixWriter writer = new PrefixWriter(ConfigProvider.getConfig());
        try {
            topics.forEach((topic, published) -> {
                if (!PREFIXES.containsKey(topic)) {
                    try {
                        PREFIXES.put(topic, writer.serializeData(topic, published.empty().get()));
                    } catch (RuntimeException e) {
                        LOG.warnf("looking up the schema of %s in the registry failed; retrying at the relay's next tick: %s",
                                topic, e.toString());
                    }
                }
            });
        } finally {
            writer.close();
        }
    }

    private static Schema schemaOf(Class<?> type) {
        try {
            return ((SpecificRecordBase) type.getDeclaredConstructor().newInstance()).getSchema();
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot read the Avro schema of " + type, e);
        }
    }

    /**
     * The registry's Avro serializer, writing everything of a framed record but the value: what it returns for a
     * record is the prefix the producer's serializer puts before that topic's values.
     */
    private static final class PrefixWriter extends AvroSerializer<SpecificRecordBase> {

        PrefixWriter(Config config) {
            Map<String, Object> settings = new HashMap<>();
            // the settings all the service's Kafka clients share (kafka.*, KAFKA_*), where the secure stack puts the
            // registry's user; the connector's and the channel's own win
            sharedKafkaSettings.forEach((name, value) -> {
                if (name.startsWith("apicurio.")) {
                    settings.put(name, value);
                }
            });
            for (String prefix : new String[] {CONNECTOR, CHANNEL}) { // the channel's own settings win
                for (String name : config.getPropertyNames()) {
                    if (name.startsWith(prefix + "apicurio.")) {
                        config.getOptionalValue(name, String.class)
                                .ifPresent(value -> settings.put(name.substring(prefix.length()), value));
                    }
                }
            }
            configure(new SerdeConfig(settings), false);
        }

        @Override
        public void serializeData(ParsedSchema<Schema> schema, SpecificRecordBase data, OutputStream out) {
            // the value is written by frame(), not here
        }
    }
}
