package io.ironflow.deploy.testing;

import io.apicurio.registry.serde.avro.AvroKafkaDeserializer;
import io.apicurio.registry.serde.avro.AvroKafkaSerializer;
import io.ironflow.events.NodeIntent;
import io.ironflow.intents.IntentSigner;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.BiPredicate;
import java.util.function.Predicate;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.RecordDeserializationException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * A plain Kafka client with the registry's Avro serde, as a system outside Ironflow would use it: it needs
 * nothing but the schemas jar, the bootstrap servers and the registry URL (and, on a secure stack, the settings of
 * the principal it logs in as: {@code KafkaSecurity.clientProperties} plus the registry's user).
 */
public final class KafkaTestClient implements AutoCloseable {

    private final String bootstrapServers;
    private final String registryUrl;
    private final Map<String, Object> security;
    private final KafkaProducer<String, Object> producer;
    private volatile IntentSigner signer;

    /**
     * The system property naming the intent-signing key this JVM's tests sign with ({@link IronflowTestInfrastructure}
     * sets it): {@link #send} signs every unsigned NodeIntent with it, as a trusted sender would.
     */
    public static final String SIGNING_KEY = "ironflow.test.intent-signing-key";

    /** A client of the broker and registry the running Quarkus test's configuration names. */
    public static KafkaTestClient ofTestConfig() {
        org.eclipse.microprofile.config.Config config = org.eclipse.microprofile.config.ConfigProvider.getConfig();
        return new KafkaTestClient(config.getValue("kafka.bootstrap.servers", String.class),
                config.getValue("mp.messaging.connector.smallrye-kafka.apicurio.registry.url", String.class));
    }

    public KafkaTestClient(String bootstrapServers, String registryUrl) {
        this(bootstrapServers, registryUrl, Map.of());
    }

    /** A client whose every Kafka client and serde also gets {@code security} (SASL, TLS, the registry's user). */
    public KafkaTestClient(String bootstrapServers, String registryUrl, Map<String, Object> security) {
        this.bootstrapServers = bootstrapServers;
        this.registryUrl = registryUrl;
        this.security = Map.copyOf(security);
        String signingKey = System.getProperty(SIGNING_KEY);
        this.signer = signingKey == null ? null : new IntentSigner(Path.of(signingKey));
        this.producer = new KafkaProducer<>(config(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName(),
                ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, AvroKafkaSerializer.class.getName(),
                "apicurio.registry.url", registryUrl,
                "apicurio.registry.auto-register", "true")));
    }

    /** From now on, {@link #send} signs unsigned intents with {@code signingKey} (a key the stack under test trusts). */
    public KafkaTestClient signingIntentsWith(Path signingKey) {
        this.signer = new IntentSigner(signingKey);
        return this;
    }

    private Map<String, Object> config(Map<String, Object> base) {
        Map<String, Object> config = new java.util.HashMap<>(security);
        config.putAll(base);
        return config;
    }

    public void send(String topic, String key, Object value) {
        send(topic, key, value, Map.of());
    }

    /**
     * Sends with record headers (a W3C traceparent, say). An unsigned NodeIntent that names its principal is signed
     * first with this JVM's test key ({@link #SIGNING_KEY}), when there is one; {@link #sendRaw} sends bytes as given.
     */
    public void send(String topic, String key, Object value, Map<String, String> headers) {
        if (signer != null && value instanceof NodeIntent intent && intent.getSignature() == null && intent.getPrincipal() != null) {
            signer.sign(intent);
        }
        try {
            ProducerRecord<String, Object> record = new ProducerRecord<>(topic, key, value);
            headers.forEach((name, header) -> record.headers().add(name, header.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
            producer.send(record).get();
        } catch (Exception e) {
            throw new IllegalStateException("cannot send to " + topic, e);
        }
    }

    /**
     * {@code value} framed by the registry's serializer as a record of a test-only topic named after its schema (so
     * the registry's rules never compare two types under one artifact): sent with {@link #sendRaw} to a real topic,
     * it is a record of the wrong type there, which its readers can decode.
     */
    public byte[] wrongType(org.apache.avro.generic.GenericContainer value) {
        try (AvroKafkaSerializer<Object> serializer = new AvroKafkaSerializer<>()) {
            serializer.configure(config(Map.of("apicurio.registry.url", registryUrl,
                    "apicurio.registry.auto-register", "true")), false);
            return serializer.serialize("ironflow.wrong-type-test." + value.getSchema().getName(), value);
        }
    }

    /** {@code value} framed by the registry's serializer for {@code topic}, as given (nothing signed): for {@link #sendRaw}. */
    public byte[] serialized(String topic, Object value) {
        try (AvroKafkaSerializer<Object> serializer = new AvroKafkaSerializer<>()) {
            serializer.configure(config(Map.of("apicurio.registry.url", registryUrl,
                    "apicurio.registry.auto-register", "true")), false);
            return serializer.serialize(topic, value);
        }
    }

    /** Sends bytes that are not a registry-framed Avro record: a poison record. Returns where it landed. */
    public RecordMetadata sendRaw(String topic, String key, byte[] value) {
        try (KafkaProducer<String, byte[]> raw = new KafkaProducer<>(config(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName(),
                ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName())))) {
            return raw.send(new ProducerRecord<>(topic, key, value)).get();
        } catch (Exception e) {
            throw new IllegalStateException("cannot send to " + topic, e);
        }
    }

    /**
     * Reads {@code topic} from the beginning of every partition until what was read satisfies {@code until},
     * or {@code timeout} passes; returns everything read. Avro values come back as the generated classes; a record
     * that is not one (a poison record) is passed over.
     */
    public <V> List<ConsumerRecord<String, V>> read(String topic, Duration timeout,
            Predicate<List<ConsumerRecord<String, V>>> until) {
        return readFromStart(topic, AvroKafkaDeserializer.class.getName(), timeout, (records, consumer) -> until.test(records));
    }

    /** Like {@link #read} but values stay bytes, for records that are not registry-framed Avro (dead letters). */
    public List<ConsumerRecord<String, byte[]>> readRaw(String topic, Duration timeout,
            Predicate<List<ConsumerRecord<String, byte[]>>> until) {
        return readFromStart(topic, ByteArrayDeserializer.class.getName(), timeout, (records, consumer) -> until.test(records));
    }

    /** Everything {@code topic} holds now: read from the beginning up to each partition's current end (poison passed over). */
    public <V> List<ConsumerRecord<String, V>> readAll(String topic, Duration timeout) {
        return readAll(topic, AvroKafkaDeserializer.class.getName(), timeout);
    }

    /** Like {@link #readAll} but values stay bytes (dead letters, or a topic that may hold poison records). */
    public List<ConsumerRecord<String, byte[]>> readAllRaw(String topic, Duration timeout) {
        return readAll(topic, ByteArrayDeserializer.class.getName(), timeout);
    }

    private <V> List<ConsumerRecord<String, V>> readAll(String topic, String valueDeserializer, Duration timeout) {
        Map<TopicPartition, Long> ends;
        try (KafkaConsumer<String, byte[]> probe = new KafkaConsumer<>(config(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName(),
                ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName())))) {
            ends = probe.endOffsets(probe.partitionsFor(topic).stream().map(p -> new TopicPartition(topic, p.partition())).toList());
        }
        return readFromStart(topic, valueDeserializer, timeout,
                (records, consumer) -> ends.entrySet().stream().allMatch(end -> consumer.position(end.getKey()) >= end.getValue()));
    }

    private <V> List<ConsumerRecord<String, V>> readFromStart(String topic, String valueDeserializer, Duration timeout,
            BiPredicate<List<ConsumerRecord<String, V>>, KafkaConsumer<String, V>> until) {
        try (KafkaConsumer<String, V> consumer = consumer(valueDeserializer)) {
            consumer.seekToBeginning(assignAll(consumer, topic));
            List<ConsumerRecord<String, V>> records = new ArrayList<>();
            Instant deadline = Instant.now().plus(timeout);
            while (!until.test(records, consumer) && Instant.now().isBefore(deadline)) {
                pollInto(consumer, records);
            }
            return records;
        }
    }

    /**
     * A reader of {@code topic} from its current end on: what is published after this call returns, and nothing
     * before. For a test that sends many requests and awaits each answer, where {@link #read} would open a consumer
     * and read the topic from the start for every one.
     */
    public <V> Follower<V> follow(String topic) {
        KafkaConsumer<String, V> consumer = consumer(AvroKafkaDeserializer.class.getName());
        List<TopicPartition> partitions = assignAll(consumer, topic);
        consumer.seekToEnd(partitions);
        partitions.forEach(consumer::position); // the end is fixed now, not at the first poll
        return new Follower<>(consumer);
    }

    /** A topic read from where {@link #follow} found its end; everything read is kept, in the order read. */
    public static final class Follower<V> implements AutoCloseable {

        private final KafkaConsumer<String, V> consumer;
        private final List<ConsumerRecord<String, V>> records = new ArrayList<>();

        private Follower(KafkaConsumer<String, V> consumer) {
            this.consumer = consumer;
        }

        /** Reads on until everything read so far satisfies {@code until}, or {@code timeout} passes; returns it all. */
        public List<ConsumerRecord<String, V>> await(Duration timeout, Predicate<List<ConsumerRecord<String, V>>> until) {
            Instant deadline = Instant.now().plus(timeout);
            while (!until.test(records) && Instant.now().isBefore(deadline)) {
                pollInto(consumer, records);
            }
            return List.copyOf(records);
        }

        @Override
        public void close() {
            consumer.close();
        }
    }

    private <V> KafkaConsumer<String, V> consumer(String valueDeserializer) {
        return new KafkaConsumer<>(config(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName(),
                ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, valueDeserializer,
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false",
                "apicurio.registry.url", registryUrl,
                "apicurio.registry.use-specific-avro-reader", "true")));
    }

    /** Assigns the consumer every partition of {@code topic}, and answers them. */
    private static List<TopicPartition> assignAll(KafkaConsumer<?, ?> consumer, String topic) {
        List<TopicPartition> partitions = consumer.partitionsFor(topic).stream()
                .map(p -> new TopicPartition(topic, p.partition())).toList();
        consumer.assign(partitions);
        return partitions;
    }

    /** One poll's records added to {@code records}; a record that is not Avro (a poison record) is passed over. */
    private static <V> void pollInto(KafkaConsumer<String, V> consumer, List<ConsumerRecord<String, V>> records) {
        try {
            consumer.poll(Duration.ofMillis(200)).forEach(records::add);
        } catch (RecordDeserializationException poison) { // the records before it came with the last poll
            consumer.seek(poison.topicPartition(), poison.offset() + 1);
        }
    }

    /** The dead letter on {@code topic} whose key is {@code key}, read within {@code timeout}; fails if there is none. */
    public ConsumerRecord<String, byte[]> deadLetter(String topic, String key, Duration timeout) {
        return readRaw(topic, timeout, records -> records.stream().anyMatch(r -> key.equals(r.key()))).stream()
                .filter(r -> key.equals(r.key())).findFirst()
                .orElseThrow(() -> new IllegalStateException("no dead letter keyed " + key + " on " + topic + " within " + timeout));
    }

    /** The offset {@code group} has committed on the partition, -1 if none: the next record it will read. */
    public long committedOffset(String group, String topic, int partition) {
        try (Admin admin = Admin.create(config(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers)))) {
            OffsetAndMetadata committed = admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata()
                    .get(10, TimeUnit.SECONDS).get(new TopicPartition(topic, partition));
            return committed == null ? -1 : committed.offset();
        } catch (Exception e) {
            throw new IllegalStateException("cannot read the offsets " + group + " committed", e);
        }
    }

    @Override
    public void close() {
        producer.close();
    }
}
