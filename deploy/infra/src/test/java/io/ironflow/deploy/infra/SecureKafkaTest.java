package io.ironflow.deploy.infra;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.ironflow.deploy.testing.TestDirectories;
import io.ironflow.schemas.Topic;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.errors.GroupAuthorizationException;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.errors.UnsupportedSaslMechanismException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A real embedded KRaft broker started secure, as {@code ironflow up --secure} starts it: SASL/SCRAM-SHA-512 and
 * {@link KafkaAccess}'s ACLs. Producers and consumers log in as the services' principals (and two external ones) and
 * are allowed or refused exactly as the table says; a wrong password is refused, and so is PLAIN on the client
 * listener (the super user's PLAIN login has a loopback listener of its own).
 */
class SecureKafkaTest {

    private static final String SITE_PRODUCER = "site-automation";
    private static final String SITE_READER = "site-dashboard";
    /** External principals whose names are prefixes of the services' consumer groups. */
    private static final String SHORT_PRODUCER = "ironflow";
    private static final String SHORT_READER = "ironflow-node";

    private static Path dataDir;
    private static KafkaSecurity security;
    private static KafkaBroker broker;

    @BeforeAll
    static void startBroker() throws Exception {
        dataDir = Path.of(System.getProperty("ironflow.test.dir", "target/ironflow-test")).toAbsolutePath()
                .resolve(UUID.randomUUID().toString());
        security = KafkaSecurity.prepare(dataDir,
                new KafkaSecurity.Options(List.of(SITE_PRODUCER, SHORT_PRODUCER), List.of(SITE_READER, SHORT_READER), null));
        int[] ports = Ports.free(2);
        broker = KafkaBroker.start(dataDir, ports[0], ports[1], security);
        broker.createTopics(Topic.all());
    }

    @AfterAll
    static void stopBroker() {
        if (broker != null) {
            broker.close();
        }
        TestDirectories.deleteRecursively(dataDir);
    }

    @Test
    void passwordsAreRandomPerDataDirectoryKeptInAnOwnerOnlyFileAndStable() throws Exception {
        Path file = security.credentialsFile();
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file.getParent())));
        String kept = Files.readString(file);
        for (String user : List.of(KafkaSecurity.ADMIN, KafkaAccess.API, KafkaAccess.CONDUCTOR, KafkaAccess.ONEVIEW,
                KafkaAccess.TEARDOWN, KafkaAccess.DASHBOARD, SITE_PRODUCER, SITE_READER)) {
            assertTrue(kept.contains(user + "=" + security.password(user)), user);
            assertTrue(security.password(user).length() >= 32, user);
        }
        assertFalse(security.password(KafkaAccess.API).equals(security.password(KafkaAccess.CONDUCTOR)));
        KafkaSecurity again = KafkaSecurity.prepare(dataDir,
                new KafkaSecurity.Options(List.of(SITE_PRODUCER, SHORT_PRODUCER), List.of(SITE_READER, SHORT_READER), null));
        assertEquals(security.password(KafkaAccess.API), again.password(KafkaAccess.API));
        Path other = dataDir.resolveSibling(UUID.randomUUID().toString());
        try {
            assertFalse(security.password(KafkaAccess.API).equals(
                    KafkaSecurity.prepare(other, KafkaSecurity.Options.servicesOnly()).password(KafkaAccess.API)));
        } finally {
            TestDirectories.deleteRecursively(other);
        }
        // the broker's own formatting file must not hold the super user's password
        assertFalse(Files.readString(dataDir.resolve("kafka/server.properties")).contains(security.password(KafkaSecurity.ADMIN)));
    }

    @Test
    void theApiWritesIntents() throws Exception {
        send(KafkaAccess.API, Topic.NODE_INTENTS);
    }

    @Test
    void theAllocatorTheOrchestratorAndAConfiguredExternalProducerWriteIntents() throws Exception {
        send(KafkaAccess.ONEVIEW, Topic.NODE_INTENTS);
        send(KafkaAccess.TEARDOWN, Topic.NODE_INTENTS);
        send(SITE_PRODUCER, Topic.NODE_INTENTS);
    }

    @Test
    void aProducerWithoutTheAclIsRefusedOnNodeIntents() {
        for (String user : List.of(KafkaAccess.DASHBOARD, KafkaAccess.CONDUCTOR, SITE_READER)) {
            assertInstanceOf(TopicAuthorizationException.class, failureOf(user, security.password(user), Topic.NODE_INTENTS), user);
        }
    }

    @Test
    void onlyConductorsWriteResultsStateAndEvents() throws Exception {
        for (Topic topic : List.of(Topic.INTENT_RESULTS, Topic.NODE_STATE, Topic.NODE_EVENTS, Topic.ALLOCATION_REQUESTS)) {
            send(KafkaAccess.CONDUCTOR, topic);
            for (String user : List.of(KafkaAccess.API, KafkaAccess.ONEVIEW, KafkaAccess.TEARDOWN, KafkaAccess.DASHBOARD,
                    SITE_PRODUCER, SITE_READER)) {
                // a reader that may DESCRIBE the topic is refused one step later: it may write nowhere, so
                // not even get an idempotent producer id (ClusterAuthorizationException)
                assertInstanceOf(AuthorizationException.class, failureOf(user, security.password(user), topic),
                        user + " on " + topic);
            }
        }
        send(KafkaAccess.ONEVIEW, Topic.ALLOCATION_RESULTS);
        assertInstanceOf(TopicAuthorizationException.class,
                failureOf(KafkaAccess.CONDUCTOR, security.password(KafkaAccess.CONDUCTOR), Topic.ALLOCATION_RESULTS));
    }

    @Test
    void aWrongPasswordIsRefused() {
        assertInstanceOf(SaslAuthenticationException.class, failureOf(KafkaAccess.API, "not-the-password", Topic.NODE_INTENTS));
        assertInstanceOf(SaslAuthenticationException.class, failureOf("nobody", "anything", Topic.NODE_INTENTS));
    }

    /**
     * The super user's PLAIN login works only on the internal listener: on the client listener, PLAIN is refused
     * even with the right password, and the super user cannot log in with SCRAM (it has no SCRAM credential).
     */
    @Test
    void plainIsRefusedOnTheClientListener() throws Exception {
        Map<String, Object> plain = new HashMap<>(security.adminProperties());
        plain.put("bootstrap.servers", broker.bootstrapServers());
        plain.put("default.api.timeout.ms", "10000");
        plain.put("request.timeout.ms", "5000");
        try (Admin admin = Admin.create(plain)) {
            ExecutionException refused = org.junit.jupiter.api.Assertions.assertThrows(ExecutionException.class,
                    () -> admin.describeCluster().nodes().get());
            assertInstanceOf(UnsupportedSaslMechanismException.class, refused.getCause(), String.valueOf(refused.getCause()));
        }
        assertInstanceOf(SaslAuthenticationException.class,
                failureOf(KafkaSecurity.ADMIN, security.password(KafkaSecurity.ADMIN), Topic.NODE_INTENTS));
        try (Admin admin = broker.admin()) { // the same login, on the internal listener
            var node = admin.describeCluster().nodes().get().iterator().next();
            assertFalse(broker.bootstrapServers().equals(node.host() + ":" + node.port()),
                    "the admin client used the client listener");
        }
    }

    @Test
    void readOnlyPrincipalsReadNodeState() throws Exception {
        send(KafkaAccess.CONDUCTOR, Topic.NODE_STATE);
        for (String reader : List.of(KafkaAccess.DASHBOARD, SITE_READER)) {
            Map<String, Object> config = new HashMap<>(security.clientProperties(reader));
            config.put("bootstrap.servers", broker.bootstrapServers());
            try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(config, new ByteArrayDeserializer(),
                    new ByteArrayDeserializer())) {
                List<TopicPartition> partitions = consumer.partitionsFor(Topic.NODE_STATE.topicName()).stream()
                        .map(p -> new TopicPartition(p.topic(), p.partition())).toList();
                consumer.assign(partitions);
                consumer.seekToBeginning(partitions);
                Instant deadline = Instant.now().plusSeconds(30);
                int read = 0;
                while (read == 0 && Instant.now().isBefore(deadline)) {
                    ConsumerRecords<byte[], byte[]> records = consumer.poll(Duration.ofMillis(500));
                    read += records.count();
                }
                assertTrue(read > 0, reader + " read nothing");
            }
        }
    }

    /**
     * Issue 58: a group ACL granted by prefix on a principal's name let a reader named {@code ironflow-node} join
     * the node history's group {@code ironflow-node-history} (and commit past audit events it never read), and a
     * producer named {@code ironflow} join the conductors' group. Each principal now joins exactly its own groups.
     */
    @Test
    void aPrincipalJoinsOnlyItsOwnConsumerGroups() throws Exception {
        send(KafkaAccess.CONDUCTOR, Topic.NODE_EVENTS);
        assertEquals(GroupAuthorizationException.class, joinFailure(SHORT_READER, Topic.NODE_EVENTS, "ironflow-node-history"));
        assertEquals(GroupAuthorizationException.class, joinFailure(SHORT_PRODUCER, Topic.INTENT_RESULTS, "ironflow-conductor"));
        assertEquals(GroupAuthorizationException.class, joinFailure(SITE_READER, Topic.NODE_EVENTS, SITE_READER + "-2"));
        assertEquals(null, joinFailure(SHORT_READER, Topic.NODE_EVENTS, SHORT_READER)); // its own: the group named as it is
        assertEquals(null, joinFailure(KafkaAccess.CONDUCTOR, Topic.NODE_EVENTS, "ironflow-node-history"));
    }

    /** The class of what refused {@code user}'s joining {@code group} to read {@code topic}, or null if it joined. */
    private static Class<?> joinFailure(String user, Topic topic, String group) {
        Map<String, Object> config = new HashMap<>(security.clientProperties(user));
        config.put("bootstrap.servers", broker.bootstrapServers());
        config.put("group.id", group);
        config.put("auto.offset.reset", "earliest");
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(config, new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            consumer.subscribe(List.of(topic.topicName()));
            Instant deadline = Instant.now().plusSeconds(30);
            while (consumer.assignment().isEmpty() && Instant.now().isBefore(deadline)) {
                consumer.poll(Duration.ofMillis(200));
            }
            consumer.commitSync();
            return consumer.assignment().isEmpty() ? fail(user + " neither joined " + group + " nor was refused") : null;
        } catch (RuntimeException e) {
            return rootCause(e).getClass();
        }
    }

    private static void send(String user, Topic topic) throws Exception {
        try (KafkaProducer<byte[], byte[]> producer = producer(user, security.password(user))) {
            producer.send(record(topic)).get();
        }
    }

    /** What refused {@code user}'s record on {@code topic}; fails if it was accepted. */
    private static Throwable failureOf(String user, String password, Topic topic) {
        try (KafkaProducer<byte[], byte[]> producer = producer(user, password)) {
            producer.send(record(topic)).get();
        } catch (ExecutionException e) {
            return rootCause(e);
        } catch (RuntimeException e) {
            return rootCause(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        return fail(user + " could write to " + topic);
    }

    /** The producer wraps its refusal in a KafkaException at times: what the broker said is the innermost cause. */
    private static Throwable rootCause(Throwable e) {
        Throwable cause = e;
        while (cause.getCause() != null) {
            cause = cause.getCause();
        }
        return cause;
    }

    private static ProducerRecord<byte[], byte[]> record(Topic topic) {
        return new ProducerRecord<>(topic.topicName(), "n1".getBytes(StandardCharsets.UTF_8),
                "not Avro: the broker does not look".getBytes(StandardCharsets.UTF_8));
    }

    private static KafkaProducer<byte[], byte[]> producer(String user, String password) {
        Map<String, Object> config = new HashMap<>(security.clientProperties(user, password));
        config.put("bootstrap.servers", broker.bootstrapServers());
        config.put("max.block.ms", "20000");
        config.put("delivery.timeout.ms", "20000");
        config.put("request.timeout.ms", "10000");
        return new KafkaProducer<>(config, new ByteArraySerializer(), new ByteArraySerializer());
    }
}
