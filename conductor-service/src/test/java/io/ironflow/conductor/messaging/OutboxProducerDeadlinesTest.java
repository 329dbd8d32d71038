package io.ironflow.conductor.messaging;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;
import org.junit.jupiter.api.Test;

/**
 * The outbox's producer settles every record a drain sends (delivers it or fails it) before the drain gives up and,
 * with its transaction, the relay lock: a record delivered later would land after what the next lock holder (another
 * conductor) published for the same node, and a compacted topic would keep the older. Kafka's defaults (60 s to
 * block for metadata, 120 s to deliver) break this; the settings are read as the conductor reads them.
 */
class OutboxProducerDeadlinesTest {

    @Test
    void everyRecordADrainSendsIsSettledBeforeTheDrainGivesUp() throws IOException {
        Properties settings = new Properties();
        try (InputStream in = getClass().getResourceAsStream("/application.properties")) {
            settings.load(in);
        }
        long block = Long.parseLong(settings.getProperty("mp.messaging.outgoing.outbox.max.block.ms", "60000"));
        long delivery = Long.parseLong(settings.getProperty("mp.messaging.outgoing.outbox.delivery.timeout.ms", "120000"));
        long request = Long.parseLong(settings.getProperty("mp.messaging.outgoing.outbox.request.timeout.ms", "30000"));
        long linger = Long.parseLong(settings.getProperty("mp.messaging.outgoing.outbox.linger.ms", "5"));
        assertTrue(block + delivery < OutboxRelay.DRAIN_DEADLINE.toMillis(), "max.block.ms " + block + " + delivery.timeout.ms "
                + delivery + " must end before the drain's " + OutboxRelay.DRAIN_DEADLINE);
        assertTrue(delivery >= request + linger, "Kafka refuses a delivery.timeout.ms under linger.ms + request.timeout.ms");
    }
}
