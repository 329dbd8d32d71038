package io.ironflow.deploy.infra;

import io.ironflow.schemas.Topic;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import kafka.tools.StorageTool;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.utils.Time;

/**
 * A single-node Kafka broker in KRaft mode (combined broker and controller) running inside this JVM.
 * Its log directory survives a restart, so a stopped stack keeps its topics and records. Plain by default; with a
 * {@link KafkaSecurity}, clients authenticate with SASL/SCRAM and are authorized by ACLs, and the launcher's admin
 * client uses a loopback listener of its own on a free port (see there).
 */
public final class KafkaBroker implements AutoCloseable {

    private final KafkaRaftServer server;
    private final String bootstrapServers;
    /** Where the launcher's admin client connects: the client listener, or the secure broker's internal one. */
    private final String adminBootstrapServers;
    private final KafkaSecurity security;

    private KafkaBroker(KafkaRaftServer server, String bootstrapServers, String adminBootstrapServers,
            KafkaSecurity security) {
        this.server = server;
        this.bootstrapServers = bootstrapServers;
        this.adminBootstrapServers = adminBootstrapServers;
        this.security = security;
    }

    /** A free loopback port for the secure broker's internal listener, other than the two it was given. */
    private static int internalPort(int port, int controllerPort) throws IOException {
        while (true) {
            int candidate = Ports.free(1)[0];
            if (candidate != port && candidate != controllerPort) {
                return candidate;
            }
        }
    }

    public static KafkaBroker start(Path dataDir, int port, int controllerPort) throws IOException {
        return start(dataDir, port, controllerPort, null);
    }

    /** Starts the broker; {@code security} (or null for a plain one) also gives each principal its user and ACLs. */
    public static KafkaBroker start(Path dataDir, int port, int controllerPort, KafkaSecurity security) throws IOException {
        Path logDir = dataDir.resolve("kafka");
        Files.createDirectories(logDir);
        Properties props = new Properties();
        props.putAll(Map.ofEntries(
                Map.entry("process.roles", "broker,controller"),
                Map.entry("node.id", "1"),
                Map.entry("controller.quorum.bootstrap.servers", "127.0.0.1:" + controllerPort),
                Map.entry("listeners", "PLAINTEXT://127.0.0.1:" + port + ",CONTROLLER://127.0.0.1:" + controllerPort),
                Map.entry("advertised.listeners", "PLAINTEXT://127.0.0.1:" + port),
                Map.entry("controller.listener.names", "CONTROLLER"),
                Map.entry("inter.broker.listener.name", "PLAINTEXT"),
                Map.entry("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT"),
                Map.entry("log.dirs", logDir.toAbsolutePath().toString()),
                // One broker: every internal topic has one replica.
                Map.entry("offsets.topic.replication.factor", "1"),
                Map.entry("offsets.topic.num.partitions", "6"),
                Map.entry("transaction.state.log.replication.factor", "1"),
                Map.entry("transaction.state.log.min.isr", "1"),
                Map.entry("share.coordinator.state.topic.replication.factor", "1"),
                Map.entry("share.coordinator.state.topic.min.isr", "1"),
                Map.entry("group.initial.rebalance.delay.ms", "0"),
                // Topics are created explicitly with their partition counts; a typo must not create a new one.
                Map.entry("auto.create.topics.enable", "false"),
                Map.entry("log.cleaner.backoff.ms", "1000")));
        // Formatted with the plain settings: the file it writes must not hold the super user's password.
        formatStorage(logDir, props);
        String adminBootstrap = "127.0.0.1:" + port;
        if (security != null) {
            int internalPort = internalPort(port, controllerPort);
            props.putAll(security.brokerProperties(port, controllerPort, internalPort));
            adminBootstrap = "127.0.0.1:" + internalPort;
        }
        KafkaRaftServer server = new KafkaRaftServer(KafkaConfig.fromProps(props, false), Time.SYSTEM);
        server.startup();
        KafkaBroker broker = new KafkaBroker(server, "127.0.0.1:" + port, adminBootstrap, security);
        broker.awaitReady(Duration.ofSeconds(60));
        if (security != null) {
            try (Admin admin = broker.admin()) {
                security.apply(admin);
            }
            security.writeAdminClientConfig(adminBootstrap);
        }
        return broker;
    }

    /** KRaft needs formatted storage; a directory formatted by an earlier run is kept as it is. */
    private static void formatStorage(Path logDir, Properties props) throws IOException {
        if (Files.exists(logDir.resolve("meta.properties"))) {
            return; // formatted before: a new cluster id would not match the one the log was written with
        }
        Path config = logDir.resolve("server.properties");
        try (Writer out = Files.newBufferedWriter(config)) {
            props.store(out, "written by Ironflow's KafkaBroker");
        }
        ByteArrayOutputStream output = new ByteArrayOutputStream();
        int rc = StorageTool.execute(new String[] {"format", "-t", Uuid.randomUuid().toString(),
                "-c", config.toString(), "--standalone"},
                new PrintStream(output, true, StandardCharsets.UTF_8));
        if (rc != 0) {
            throw new IOException("formatting Kafka storage failed: " + output.toString(StandardCharsets.UTF_8));
        }
    }

    private void awaitReady(Duration timeout) {
        Instant deadline = Instant.now().plus(timeout);
        try (Admin admin = admin()) {
            while (true) {
                try {
                    admin.describeCluster().nodes().get();
                    return;
                } catch (ExecutionException e) {
                    if (Instant.now().isAfter(deadline)) {
                        throw new IllegalStateException("Kafka did not become ready on " + bootstrapServers, e);
                    }
                    Thread.sleep(200);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Sets {@code topic}'s configs on the existing topic; configs not named keep their values. */
    private static void alignConfigs(Admin admin, Topic topic) throws InterruptedException {
        if (topic.configs().isEmpty()) {
            return;
        }
        ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, topic.topicName());
        List<AlterConfigOp> ops = topic.configs().entrySet().stream()
                .map(c -> new AlterConfigOp(new ConfigEntry(c.getKey(), c.getValue()), AlterConfigOp.OpType.SET)).toList();
        try {
            admin.incrementalAlterConfigs(Map.of(resource, ops)).all().get();
        } catch (ExecutionException e) {
            throw new IllegalStateException("cannot set the configs of topic " + topic.topicName(), e.getCause());
        }
    }

    /** Creates every topic Ironflow uses with its partition count and configs; existing ones get those configs. */
    public void createTopics(List<Topic> topics) {
        try (Admin admin = admin()) {
            for (Topic topic : topics) {
                NewTopic newTopic = new NewTopic(topic.topicName(), topic.partitions(), (short) 1).configs(topic.configs());
                try {
                    admin.createTopics(List.of(newTopic)).all().get();
                } catch (ExecutionException e) {
                    if (!(e.getCause() instanceof TopicExistsException)) {
                        throw new IllegalStateException("cannot create topic " + topic.topicName(), e.getCause());
                    }
                    alignConfigs(admin, topic); // a topic made by an older release gets today's configs (retention)
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** An admin client; on a secure broker, as the super user on the internal listener. */
    public Admin admin() {
        Map<String, Object> config = new java.util.HashMap<>(security == null ? Map.of() : security.adminProperties());
        config.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, adminBootstrapServers);
        return Admin.create(config);
    }

    /** The broker's security, or null when it is plain. */
    public KafkaSecurity security() {
        return security;
    }

    public String bootstrapServers() {
        return bootstrapServers;
    }

    @Override
    public void close() {
        server.shutdown();
        server.awaitShutdown();
    }
}
