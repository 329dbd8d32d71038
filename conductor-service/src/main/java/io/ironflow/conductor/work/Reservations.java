package io.ironflow.conductor.work;

import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import java.util.UUID;

/**
 * Node reservations the conductor's own work takes, as Ironic takes them: one conditional UPDATE, so of two
 * conductors racing for a node exactly one gets it. Run inside the caller's transaction, before the node is
 * loaded. (Intents lock the row they load instead; see NodeCommands.reserve.)
 */
final class Reservations {

    private Reservations() {
    }

    /** Takes a free node; false when someone holds it. */
    static Uni<Boolean> claim(UUID node, String conductor) {
        return update("UPDATE nodes SET reservation = ?1 WHERE uuid = ?2 AND reservation IS NULL", conductor, node);
    }

    /** Takes a node from a conductor that is gone. */
    static Uni<Boolean> claimFrom(UUID node, String deadConductor, String conductor) {
        return update("UPDATE nodes SET reservation = ?1 WHERE uuid = ?2 AND reservation = ?3", conductor, node, deadConductor);
    }

    /** Takes a free node parked in a wait state whose step is due. */
    static Uni<Boolean> claimWaiting(UUID node, String conductor) {
        return update("UPDATE nodes SET reservation = ?1 WHERE uuid = ?2 AND reservation IS NULL"
                + " AND provision_state IN " + NodeSql.WAIT_STATES
                + " AND (driver_internal_info ->> 'step_due_at')::bigint <= ?3",
                conductor, node, System.currentTimeMillis());
    }

    /** Takes a free oneview node that still waits for the power request {@code requestId}. */
    static Uni<Boolean> claimPowerRequest(UUID node, String conductor, String requestId) {
        return update("UPDATE nodes SET reservation = ?1 WHERE uuid = ?2 AND reservation IS NULL"
                + " AND driver_internal_info -> '" + OneViewPower.PENDING + "' ->> 'request_id' = ?3", conductor, node, requestId);
    }

    /** Takes a free oneview node whose pending power request is past its deadline. */
    static Uni<Boolean> claimExpiredPowerRequest(UUID node, String conductor) {
        return update("UPDATE nodes SET reservation = ?1 WHERE uuid = ?2 AND reservation IS NULL"
                + " AND (driver_internal_info -> '" + OneViewPower.PENDING + "' ->> 'deadline')::bigint < ?3",
                conductor, node, System.currentTimeMillis());
    }

    private static Uni<Boolean> update(String sql, Object... parameters) {
        return Panache.getSession()
                .flatMap(session -> NodeSql.bind(session.createNativeQuery(sql), parameters).executeUpdate())
                .map(rows -> rows == 1);
    }
}
