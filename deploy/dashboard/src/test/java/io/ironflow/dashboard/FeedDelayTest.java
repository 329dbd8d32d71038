package io.ironflow.dashboard;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code ironflow.dashboard.feed-delay}: how it becomes the feed's fetch settings, and which values are refused. */
class FeedDelayTest {

    @Test
    void aDelayMakesFullerFetchesAndZeroKeepsTheClientsDefaults() {
        assertEquals(Map.of("fetch.min.bytes", 65536, "fetch.max.wait.ms", 250), TopicFeed.fetchSettings(Duration.ofMillis(250)));
        assertEquals(Map.of(), TopicFeed.fetchSettings(Duration.ZERO));
    }

    @Test
    void aNegativeOrOverlongDelayIsRefusedNamingTheKey() {
        for (Duration wrong : new Duration[] {Duration.ofMillis(-1), Duration.ofSeconds(11), Duration.ofDays(30)}) {
            IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> TopicFeed.fetchSettings(wrong));
            assertTrue(refused.getMessage().contains("ironflow.dashboard.feed-delay"), refused.getMessage());
        }
    }
}
