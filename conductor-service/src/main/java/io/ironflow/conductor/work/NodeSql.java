package io.ironflow.conductor.work;

import io.ironflow.conductor.domain.Operation;
import java.util.stream.Collectors;

/** SQL text the conductor's own work shares, derived from the domain rather than written out twice. */
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
}
