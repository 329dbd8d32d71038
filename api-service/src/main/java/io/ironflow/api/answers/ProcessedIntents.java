package io.ironflow.api.answers;

import io.ironflow.api.intents.RecordedAnswers;
import io.ironflow.api.nodes.NodeReader;
import io.ironflow.api.portgroups.PortgroupReader;
import io.ironflow.api.ports.PortReader;
import io.ironflow.events.IntentResult;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.UUID;

/**
 * {@link RecordedAnswers} from the conductor's processed_intents table (read-only to the API), with the node as the
 * tables have it now, its ports and portgroups included as in a conductor's answer (none: deleted, or a refused
 * creation).
 */
@ApplicationScoped
class ProcessedIntents implements RecordedAnswers {

    private final Pool client;
    private final NodeReader nodes;
    private final PortReader ports;
    private final PortgroupReader portgroups;

    ProcessedIntents(Pool client, NodeReader nodes, PortReader ports, PortgroupReader portgroups) {
        this.client = client;
        this.nodes = nodes;
        this.ports = ports;
        this.portgroups = portgroups;
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
                    String node = row.getString(0); // null: the intent named no node that can exist (V30)
                    Uni<io.ironflow.events.NodeSnapshot> current = node == null ? Uni.createFrom().nullItem()
                            : withPortsAndPortgroups(node);
                    return current.map(now -> IntentResult.newBuilder()
                            .setIntentId(intentId)
                            .setNodeUuid(node == null ? "" : node)
                            .setAccepted(row.getBoolean(1))
                            .setCode(row.getInteger(2))
                            .setErrorMessage(row.getString(3))
                            .setNode(now)
                            .setConductor("(recorded)")
                            .setCompletedAt(row.getOffsetDateTime(4).toInstant())
                            .build());
                });
    }

    private Uni<io.ironflow.events.NodeSnapshot> withPortsAndPortgroups(String node) {
        return nodes.find(node).flatMap(found -> found == null ? Uni.createFrom().nullItem()
                : ports.ofNode(UUID.fromString(node)).flatMap(itsPorts -> portgroups.ofNode(UUID.fromString(node))
                        .map(itsPortgroups -> {
                            found.setPorts(itsPorts.stream().map(PortReader.StoredPort::port).toList());
                            found.setPortgroups(itsPortgroups.stream().map(PortgroupReader.StoredPortgroup::portgroup).toList());
                            return found;
                        })));
    }
}
