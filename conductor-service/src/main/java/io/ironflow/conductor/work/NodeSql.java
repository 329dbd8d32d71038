package io.ironflow.conductor.work;

import io.ironflow.conductor.domain.Operation;
import java.util.stream.Collectors;
import org.hibernate.reactive.mutiny.Mutiny;

/** The conductor's own native SQL on the node table: the wait-state list and the one way parameters are bound. */
final class NodeSql {

    /**
     * The wait states as an SQL list, for {@code provision_state IN ...}. The V2 migration's partial index
     * nodes_waiting lists the same states (a test keeps the two equal), so these scans can use it.
     */
    static final String WAIT_STATES = Operation.waitStates().stream()
            .map(state -> "'" + state.wire().replace("'", "''") + "'")
            .collect(Collectors.joining(", ", "(", ")"));

    private NodeSql() {
    }

    /** Binds {@code parameters} to the positional parameters ?1, ?2, ... of {@code query}, in order. */
    static <Q extends Mutiny.AbstractQuery> Q bind(Q query, Object... parameters) {
        for (int i = 0; i < parameters.length; i++) {
            query.setParameter(i + 1, parameters[i]);
        }
        return query;
    }
}
