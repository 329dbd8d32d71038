package io.ironflow.api.limits;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.github.bucket4j.Bucket;
import io.github.bucket4j.ConsumptionProbe;
import io.ironflow.api.errors.IronicErrors;
import io.ironflow.api.versions.ApiVersion;
import io.ironflow.auth.HttpAuthentication;
import io.ironflow.policy.Principal;
import io.quarkus.vertx.http.runtime.RouteConstants;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.net.SocketAddress;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * A token bucket per principal (Bucket4j): the user io.ironflow.auth authenticated, or the client's address when
 * the request is anonymous (noauth, or an open path such as {@code /v1}). A request that finds its bucket empty is answered 429 in Ironic's error shape with
 * {@code Retry-After} (whole seconds until a token is back), before any resource sees it. Health, metrics and the
 * OpenAPI document ({@code /q/*}) are never limited. Buckets of principals not seen for a while are forgotten.
 */
@ApplicationScoped
public class RateLimit {

    private final boolean enabled;
    private final long burst;
    private final long perSecond;
    private final Cache<String, Bucket> buckets;

    RateLimit(@ConfigProperty(name = "ironflow.api.rate-limit.enabled", defaultValue = "true") boolean enabled,
            @ConfigProperty(name = "ironflow.api.rate-limit.burst", defaultValue = "2000") long burst,
            @ConfigProperty(name = "ironflow.api.rate-limit.per-second", defaultValue = "1000") long perSecond,
            @ConfigProperty(name = "ironflow.api.rate-limit.principals", defaultValue = "100000") long principals) {
        this.enabled = enabled;
        this.burst = burst;
        this.perSecond = perSecond;
        // a forgotten principal comes back to a full bucket, which it would have had by then anyway
        this.buckets = Caffeine.newBuilder().maximumSize(principals)
                .expireAfterAccess(Duration.ofSeconds(Math.max(1, (burst + perSecond - 1) / perSecond))).build();
    }

    void install(@Observes Router router) {
        if (enabled) {
            // after io.ironflow.auth's authentication (Integer.MIN_VALUE + 1), so the principal is known; before the resources
            router.route().order(RouteConstants.ROUTE_ORDER_BEFORE_DEFAULT).handler(this::limit);
        }
    }

    private void limit(RoutingContext context) {
        if (context.normalizedPath().startsWith("/q/")) {
            context.next();
            return;
        }
        String principal = principal(context);
        ConsumptionProbe probe = buckets.get(principal, key -> Bucket.builder()
                .addLimit(limit -> limit.capacity(burst).refillGreedy(perSecond, Duration.ofSeconds(1))).build())
                .tryConsumeAndReturnRemaining(1);
        if (probe.isConsumed()) {
            context.next();
            return;
        }
        long seconds = Math.max(1, TimeUnit.NANOSECONDS.toSeconds(probe.getNanosToWaitForRefill() + 999_999_999L));
        context.response()
                .setStatusCode(429)
                .putHeader(HttpHeaders.CONTENT_TYPE, "application/json")
                .putHeader("Retry-After", Long.toString(seconds))
                .putHeader(ApiVersion.MIN_HEADER, ApiVersion.MIN.toString())
                .putHeader(ApiVersion.MAX_HEADER, ApiVersion.MAX.toString())
                .end(IronicErrors.body(429, "Too many requests from " + principal + ": more than " + perSecond
                        + " a second (bursts of " + burst + "). Retry after " + seconds + " s."));
    }

    /**
     * The authenticated user's name, else the client's address (as forwarded, if forwarding is trusted). noauth's
     * principal is everyone's, so noauth callers are told apart by address.
     */
    static String principal(RoutingContext context) {
        Principal who = HttpAuthentication.principal(context);
        if (who != null && !who.equals(Principal.NOAUTH)) {
            return who.user();
        }
        SocketAddress client = context.request().remoteAddress();
        return client == null ? "unknown" : client.hostAddress();
    }
}
