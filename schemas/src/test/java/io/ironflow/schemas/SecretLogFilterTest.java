package io.ironflow.schemas;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.jboss.logmanager.ExtLogRecord;
import org.jboss.logmanager.Level;
import org.junit.jupiter.api.Test;

/**
 * The MDC values a log line prints (%X: the node uuid and intent id a Kafka producer chose) pass the same filter as
 * the message (issue 58): no control character, so a producer cannot start a forged log line; a bounded length;
 * and secrets masked.
 */
class SecretLogFilterTest {

    private static ExtLogRecord record(String node) {
        ExtLogRecord record = new ExtLogRecord(Level.INFO, "applied", SecretLogFilterTest.class.getName());
        record.putMdc("node", node);
        return record;
    }

    @Test
    void aProducerCannotInjectALogLineThroughTheMdc() {
        ExtLogRecord record = record("n1\r\n2026-12-03 17:00:00,000 INFO  [i.i.c.i.IntentProcessor] forged\u001b[2J");
        assertTrue(new SecretLogFilter().isLoggable(record));
        String node = record.getMdc("node");
        assertFalse(node.chars().anyMatch(Character::isISOControl), node);
        assertTrue(node.startsWith("n1"), node);
    }

    @Test
    void mdcValuesAreMaskedAndBounded() {
        ExtLogRecord masked = record("n1 password=hunter2");
        new SecretLogFilter().isLoggable(masked);
        assertEquals("n1 password=" + SecretFields.MASK, masked.getMdc("node"));

        ExtLogRecord longOne = record("x".repeat(10_000));
        new SecretLogFilter().isLoggable(longOne);
        assertTrue(longOne.getMdc("node").length() <= SecretLogFilter.MDC_MAX + 20, longOne.getMdc("node").length() + " chars");
        assertTrue(longOne.getMdc("node").endsWith("(truncated)"), longOne.getMdc("node"));
    }

    @Test
    void anOrdinaryMdcValueIsLeftAlone() {
        ExtLogRecord record = record("6f0c4a36-8a53-4c52-9d1c-7d5b0a3f2e10");
        new SecretLogFilter().isLoggable(record);
        assertEquals("6f0c4a36-8a53-4c52-9d1c-7d5b0a3f2e10", record.getMdc("node"));
    }
}
