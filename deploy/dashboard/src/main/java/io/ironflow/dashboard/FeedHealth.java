package io.ironflow.dashboard;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Liveness;
import org.eclipse.microprofile.health.Readiness;

/** Health of the Kafka feed: live while its thread runs; ready once node-state has been read to its end. */
public final class FeedHealth {

    private FeedHealth() {
    }

    /** Live while the feed's thread runs. */
    @Liveness
    @ApplicationScoped
    public static class Live implements HealthCheck {
        @Inject
        TopicFeed feed;

        @Override
        public HealthCheckResponse call() {
            return HealthCheckResponse.named("node-state feed").status(feed.alive()).build();
        }
    }

    /** Ready once every node's latest state, as the topic held it at start, is on the board. */
    @Readiness
    @ApplicationScoped
    public static class Ready implements HealthCheck {
        @Inject
        TopicFeed feed;

        @Override
        public HealthCheckResponse call() {
            return HealthCheckResponse.named("node-state caught up").status(feed.caughtUp()).build();
        }
    }
}
