package io.ironflow.api.nodes;

import io.ironflow.api.intents.RecordedAnswers;
import io.ironflow.events.IntentResult;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * {@link RecordedAnswers} from the conductor's processed_intents table (read-only to the API), with the node as the
 * node table has it now (none: deleted, or a refused creation).
 */
@ApplicationScoped
class ProcessedIntents implements RecordedAnswers {

    private final Pool client;
    private final NodeReader nodes;

    ProcessedIntents(Pool client, NodeReader nodes) {
        this.client = client;
        this.nodes = nodes;
    }

    @Override
    public Uni<IntentResult> find(String intentId) {
        return client.preparedQuery("SELECT node_uuid::text, accepted, code, error_message, processed_at"
                        + " FROM processed_intents WHERE intent_id = $1").execute(Tuple.of(intentId))
                .flatMap(rows -> {
                    if (rows.size() == 0) {
                        return Uni.createFrom().nullItem();
                    }
                    Row row = rows.iterator().next();
                    String node = row.getString(0);
                    return nodes.find(node).map(now -> IntentResult.newBuilder()
                            .setIntentId(intentId)
                            .setNodeUuid(node)
                            .setAccepted(row.getBoolean(1))
                            .setCode(row.getInteger(2))
                            .setErrorMessage(row.getString(3))
                            .setNode(now)
                            .setConductor("(recorded)")
                            .setCompletedAt(row.getOffsetDateTime(4).toInstant())
                            .build());
                });
    }
}
