package io.ironflow.schemas;

import io.smallrye.common.annotation.Identifier;
import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.kafka.DeserializationFailureHandler;
import jakarta.enterprise.context.ApplicationScoped;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.common.header.Headers;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/**
 * Hands a record that cannot be decoded to the consumer as a null payload, the decoder's reason and the record's
 * bytes in its headers, so the consumer refuses it and the channel's dead-letter strategy sends it on with both
 * reasons. SmallRye's own handling flags such a record and dead-letters it before the commit strategy has seen it:
 * the throttled strategy then never counts it, so a poison record last on its partition was never committed (a
 * lag of one for ever) and was dead-lettered again after every rebalance or restart. A channel opts in with
 * {@code value-deserialization-failure-handler=undecodable-records}.
 * <p>
 * A record that fails only because the schema registry cannot be reached (a writer schema not yet cached: a
 * service just restarted, or a new producer version rolled out, while the registry restarts) is not undecodable:
 * it is decoded again, backing off, while the registry stays away. One outage holds the records for at most
 * {@code ironflow.kafka.registry-outage-wait} in all, not per record, so the poll is never held past Kafka's
 * max.poll.interval.ms; after that, records are dead-lettered as before until one decodes again.
 */
@ApplicationScoped
@Identifier(UndecodableRecords.NAME)
public class UndecodableRecords implements DeserializationFailureHandler<Object> {

    public static final String NAME = "undecodable-records";
    private static final Logger LOG = Logger.getLogger(UndecodableRecords.class);

    private final Duration outageWait;
    /** When the registry was first found away in this outage (System.nanoTime), or 0: none. */
    private final AtomicLong outageSince = new AtomicLong();

    UndecodableRecords(@ConfigProperty(name = "ironflow.kafka.registry-outage-wait", defaultValue = "30s") Duration outageWait) {
        this.outageWait = outageWait;
    }

    @Override
    public Object decorateDeserialization(Uni<Object> deserialization, String topic, boolean isKey, String deserializer,
            byte[] data, Headers headers) {
        boolean[] waited = {false}; // only a record that waited for the registry tells that it answers again
        return deserialization
                .onFailure(failure -> waited[0] = registryAwayForNow(failure)).retry()
                .withBackOff(Duration.ofMillis(250), Duration.ofSeconds(2)).indefinitely()
                .invoke(() -> {
                    if (waited[0]) {
                        registryAnswered();
                    }
                })
                .onFailure().recoverWithItem(failure -> {
                    if (headers != null) { // what SmallRye's own handling records, the bytes once, not its flag
                        headers.add(DESERIALIZATION_FAILURE_DESERIALIZER, utf8(deserializer));
                        headers.add(DESERIALIZATION_FAILURE_TOPIC, utf8(topic));
                        headers.add(DESERIALIZATION_FAILURE_REASON, utf8(String.valueOf(failure.getMessage())));
                        if (failure.getCause() != null) {
                            headers.add(DESERIALIZATION_FAILURE_CAUSE, utf8(String.valueOf(failure.getCause().getMessage())));
                        }
                        if (data != null) {
                            headers.add(isKey ? DESERIALIZATION_FAILURE_KEY_DATA : DESERIALIZATION_FAILURE_VALUE_DATA, data);
                        }
                    }
                    return null;
                }).await().indefinitely();
    }

    /** Whether {@code failure} is the registry out of reach, and this outage may still hold records. */
    private boolean registryAwayForNow(Throwable failure) {
        if (!unreachable(failure)) {
            return false;
        }
        long now = System.nanoTime();
        long since = outageSince.get();
        if (since == 0) {
            if (outageSince.compareAndSet(0, now)) {
                LOG.warnf("the schema registry cannot be reached (%s); records that need it wait for it, up to %s in all",
                        failure.getMessage(), outageWait);
            }
            return true;
        }
        boolean mayWait = now - since < outageWait.toNanos();
        if (!mayWait) {
            LOG.debugf("the schema registry is still away after %s: a record that needs it is dead-lettered", outageWait);
        }
        return mayWait;
    }

    private void registryAnswered() {
        long since = outageSince.getAndSet(0);
        if (since != 0) {
            LOG.infof("the schema registry answers again, after %d ms", (System.nanoTime() - since) / 1_000_000);
        }
    }

    /**
     * A connection refused or timed out, or the registry's name not resolving (its DNS entry gone while it
     * restarts), anywhere in the chain: the registry's client could not ask it.
     */
    static boolean unreachable(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause() == cause ? null : cause.getCause()) {
            if (cause instanceof ConnectException || cause instanceof SocketTimeoutException
                    || cause instanceof HttpTimeoutException || cause instanceof UnknownHostException) {
                return true;
            }
        }
        return false;
    }

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
