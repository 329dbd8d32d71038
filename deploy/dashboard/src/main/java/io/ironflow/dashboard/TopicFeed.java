package io.ironflow.dashboard;

import io.apicurio.registry.serde.avro.AvroKafkaDeserializer;
import io.ironflow.schemas.CachingAvroDatumProvider;
import io.ironflow.schemas.CachingAvroDatumProviderCustomizer;
import io.ironflow.schemas.Topic;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import io.smallrye.common.annotation.Identifier;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.generic.GenericRecord;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndTimestamp;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.RecordDeserializationException;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/**
 * Feeds the {@link NodeBoard} from Kafka: {@code ironflow.node-state} from its beginning (compacted: every node's
 * latest snapshot), then {@code ironflow.node-events} from {@code ironflow.dashboard.events-lookback} ago.
 *
 * <p>Contract: partitions are assigned, not subscribed, so every dashboard instance sees everything and leaves no
 * offsets behind; a restart rebuilds the whole view from the topics. The feed is ready once it has read
 * node-state up to where that topic ended when the feed started. The view may trail the topics by
 * {@code ironflow.dashboard.feed-delay} (fuller fetches under load). A record that cannot be decoded, or that is not
 * its topic's type, is logged and skipped, never retried; a broker that goes away is waited for by the client, and
 * the loop never ends on an error, only on shutdown.
 */
@ApplicationScoped
public class TopicFeed {

    private static final Logger LOG = Logger.getLogger(TopicFeed.class);
    private static final String SNAPSHOT = Topic.NODE_STATE.valueSchema().orElseThrow().getFullName();
    private static final String EVENT = Topic.NODE_EVENTS.valueSchema().orElseThrow().getFullName();

    @Inject
    NodeBoard board;

    /** Every {@code kafka.*} setting of the service (bootstrap servers, SASL, TLS), as Quarkus gathers them. */
    @Inject
    @Identifier("default-kafka-broker")
    Map<String, Object> kafkaSettings;

    @ConfigProperty(name = "mp.messaging.connector.smallrye-kafka.apicurio.registry.url")
    String registryUrl;

    @ConfigProperty(name = "ironflow.dashboard.events-lookback", defaultValue = "24h")
    Duration eventsLookback;

    /** How far the view may trail the topics: a fetch is answered once 64 KiB are there or after this long. */
    @ConfigProperty(name = "ironflow.dashboard.feed-delay", defaultValue = "250ms")
    Duration feedDelay;
    /** The longest feed delay taken: well inside the client's 30 s request timeout, and still a live view. */
    static final Duration MAX_FEED_DELAY = Duration.ofSeconds(10);

    private Map<String, Object> fetchSettings;

    private volatile KafkaConsumer<String, Object> consumer;
    private volatile Map<TopicPartition, Long> catchUpTo;
    private volatile boolean running = true;
    private Thread thread;

    void start(@Observes StartupEvent event) {
        fetchSettings = fetchSettings(feedDelay); // a wrong delay stops the start-up, not the feed's thread later
        thread = new Thread(this::run, "dashboard-topic-feed");
        thread.setDaemon(true);
        thread.start();
    }

    void stop(@Observes ShutdownEvent event) {
        running = false;
        KafkaConsumer<String, Object> current = consumer;
        if (current != null) {
            current.wakeup();
        }
    }

    /** Whether the whole compacted node-state, as it stood at start, has been read. */
    public boolean caughtUp() {
        Map<TopicPartition, Long> targets = catchUpTo;
        KafkaConsumer<String, Object> current = consumer;
        return targets != null && current != null && targets.isEmpty();
    }

    /** Whether the feed's thread still runs (it ends only on shutdown). */
    public boolean alive() {
        return thread != null && thread.isAlive();
    }

    private void run() {
        while (running) {
            try (KafkaConsumer<String, Object> kafka = new KafkaConsumer<>(consumerConfig())) {
                consumer = kafka;
                assign(kafka);
                while (running) {
                    poll(kafka);
                }
            } catch (WakeupException e) {
                return;
            } catch (RuntimeException e) {
                // E.g. the topics' metadata not answered in time while the broker restarts: start over.
                LOG.warnf("dashboard feed: %s; reconnecting in 2 s", e.toString());
                sleep(Duration.ofSeconds(2));
            }
        }
    }

    private Map<String, Object> consumerConfig() {
        Map<String, Object> config = new HashMap<>(kafkaSettings);
        config.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        config.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, AvroKafkaDeserializer.class.getName());
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        config.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 2000);
        config.putAll(fetchSettings);
        config.put("apicurio.registry.url", registryUrl);
        // A class, not its name: Apicurio would resolve a name with its own class loader (see the customizer).
        config.put(CachingAvroDatumProviderCustomizer.KEY, CachingAvroDatumProvider.class);
        return config;
    }

    /**
     * The fetch settings of a view that may trail by {@code delay}: fewer, fuller fetches (a handful of records per
     * fetch costs the broker and the feed), none at 0. A delay below 0 or above {@link #MAX_FEED_DELAY} is refused.
     */
    static Map<String, Object> fetchSettings(Duration delay) {
        if (delay.isNegative() || delay.compareTo(MAX_FEED_DELAY) > 0) {
            throw new IllegalArgumentException("ironflow.dashboard.feed-delay must be between 0 and "
                    + MAX_FEED_DELAY.toSeconds() + "s, not " + delay);
        }
        return delay.isZero() ? Map.of() : Map.of(ConsumerConfig.FETCH_MIN_BYTES_CONFIG, 65536,
                ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, (int) delay.toMillis());
    }

    private void assign(KafkaConsumer<String, Object> kafka) {
        List<TopicPartition> states = partitions(kafka, Topic.NODE_STATE);
        List<TopicPartition> events = partitions(kafka, Topic.NODE_EVENTS);
        List<TopicPartition> all = new ArrayList<>(states);
        all.addAll(events);
        kafka.assign(all);
        kafka.seekToBeginning(states);
        Map<TopicPartition, Long> since = new HashMap<>();
        long from = Instant.now().minus(eventsLookback).toEpochMilli();
        events.forEach(p -> since.put(p, from));
        Map<TopicPartition, OffsetAndTimestamp> offsets = kafka.offsetsForTimes(since, Duration.ofSeconds(30));
        List<TopicPartition> toEnd = new ArrayList<>();
        offsets.forEach((partition, offset) -> {
            if (offset == null) {
                toEnd.add(partition); // nothing that recent: only what comes next
            } else {
                kafka.seek(partition, offset.offset());
            }
        });
        kafka.seekToEnd(toEnd);
        Map<TopicPartition, Long> ends = new HashMap<>(kafka.endOffsets(states, Duration.ofSeconds(30)));
        ends.values().removeIf(end -> end == 0);
        catchUpTo = new HashMap<>(ends);
        updateCatchUp(kafka);
    }

    private static List<TopicPartition> partitions(KafkaConsumer<String, Object> kafka, Topic topic) {
        return kafka.partitionsFor(topic.topicName(), Duration.ofSeconds(30)).stream()
                .map(info -> new TopicPartition(topic.topicName(), info.partition())).toList();
    }

    private void poll(KafkaConsumer<String, Object> kafka) {
        try {
            for (ConsumerRecord<String, Object> record : kafka.poll(Duration.ofMillis(200))) {
                take(record);
            }
        } catch (RecordDeserializationException e) {
            LOG.warnf(e, "dashboard feed: skipping %s offset %d, which cannot be decoded", e.topicPartition(), e.offset());
            kafka.seek(e.topicPartition(), e.offset() + 1);
        }
        updateCatchUp(kafka);
    }

    /**
     * Applies a snapshot, a tombstone or an event; a record of another type on either topic (a producer that wrote
     * to the wrong topic) is skipped: read by field names, it would throw at every replay and the feed would never
     * pass it.
     */
    private void take(ConsumerRecord<String, Object> record) {
        Object value = record.value();
        boolean states = record.topic().equals(Topic.NODE_STATE.topicName());
        if (value instanceof GenericRecord decoded && decoded.getSchema().getFullName().equals(states ? SNAPSHOT : EVENT)) {
            if (states) {
                board.apply(record.key(), decoded);
            } else {
                board.record(decoded);
            }
        } else if (value == null && states) {
            board.apply(record.key(), null); // a tombstone: the node was deleted
        } else {
            LOG.warnf("dashboard feed: skipping %s-%d offset %d: unexpected %s", record.topic(), record.partition(),
                    record.offset(), value instanceof GenericRecord decoded ? decoded.getSchema().getFullName()
                            : value == null ? "tombstone" : value.getClass().getSimpleName());
        }
    }

    private void updateCatchUp(KafkaConsumer<String, Object> kafka) {
        Map<TopicPartition, Long> targets = catchUpTo;
        if (targets == null || targets.isEmpty()) {
            return;
        }
        Map<TopicPartition, Long> left = new HashMap<>(targets);
        left.entrySet().removeIf(target -> kafka.position(target.getKey()) >= target.getValue());
        catchUpTo = left;
    }

    private static void sleep(Duration pause) {
        try {
            Thread.sleep(pause.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
