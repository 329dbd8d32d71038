package io.ironflow.schemas;

import io.smallrye.common.annotation.Identifier;
import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.kafka.DeserializationFailureHandler;
import jakarta.enterprise.context.ApplicationScoped;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.common.header.Headers;

/**
 * Hands a record that cannot be decoded to the consumer as a null payload, the decoder's reason and the record's
 * bytes in its headers, so the consumer refuses it and the channel's dead-letter strategy sends it on with both
 * reasons. SmallRye's own handling flags such a record and dead-letters it before the commit strategy has seen it:
 * the throttled strategy then never counts it, so a poison record last on its partition was never committed (a
 * lag of one for ever) and was dead-lettered again after every rebalance or restart. A channel opts in with
 * {@code value-deserialization-failure-handler=undecodable-records}.
 */
@ApplicationScoped
@Identifier(UndecodableRecords.NAME)
public class UndecodableRecords implements DeserializationFailureHandler<Object> {

    public static final String NAME = "undecodable-records";

    @Override
    public Object decorateDeserialization(Uni<Object> deserialization, String topic, boolean isKey, String deserializer,
            byte[] data, Headers headers) {
        return deserialization.onFailure().recoverWithItem(failure -> {
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

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
