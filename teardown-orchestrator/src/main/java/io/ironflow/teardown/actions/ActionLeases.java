package io.ironflow.teardown.actions;

import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/**
 * At most one orchestrator instance runs an action: it runs it under a lease, a row of {@code action_leases} with
 * an owner (this instance's id) and an expiry. A lease is taken when there is none, it has expired, or this
 * instance holds it already; a heartbeat renews every lease this instance holds ({@code lease-ttl} / 3); the run
 * gives it up at its end. An instance that dies, or loses the database for longer than {@code lease-ttl}, loses its
 * leases, and another instance's rescan takes the actions over; the instance that lost a lease learns it at its next
 * renewal ({@link Lease#renew}) or at its next write, which {@link ActionStore} fences on the lease ({@link LeaseLost}),
 * and stops running that action. Each statement borrows a pooled connection for its own
 * length only, so any number of actions can run on a small pool, and a failed release leaves no connection in a
 * strange state: the lease simply expires.
 *
 * <p>A direct node step (one of Promenade's endpoints, run outside any action) holds its node the same way: a
 * {@link NodeLease} is a row of {@code node_claims} naming the step, renewed by the same heartbeat and deleted when
 * the step ends, so no action and no other direct step runs on the node meanwhile, and a claim whose instance died
 * lapses after {@code lease-ttl}. One whose instance loses the database for that long lapses too; the heartbeat
 * renews it when the database is back, unless an action or another step took the node meanwhile: then the heartbeat
 * logs it, and the step stops before its next part ({@link NodeLease#renew}).
 */
@ApplicationScoped
public class ActionLeases {

    private static final Logger LOG = Logger.getLogger(ActionLeases.class);

    private final DataSource db;
    private final String owner;
    private final Duration ttl;
    private final Set<String> held = ConcurrentHashMap.newKeySet();
    private final Set<String> heldNodes = ConcurrentHashMap.newKeySet(); // the claim ids of this instance's direct steps
    private ScheduledExecutorService heartbeat;

    @Inject
    ActionLeases(DataSource db, @ConfigProperty(name = "ironflow.teardown.lease-ttl") Duration ttl,
            @ConfigProperty(name = "ironflow.teardown.instance-id") Optional<String> instanceId) {
        this(db, instanceId.orElseGet(ActionLeases::defaultInstanceId), ttl);
    }

    /** Leases of the instance {@code owner}; its heartbeat is {@link #renewHeld} (the bean runs it on a timer). */
    public ActionLeases(DataSource db, String owner, Duration ttl) {
        this.db = db;
        this.owner = owner;
        this.ttl = ttl;
    }

    /** A lease this instance holds on one action; closing it gives it up. */
    public final class Lease implements AutoCloseable {

        private final String actionId;

        private Lease(String actionId) {
            this.actionId = actionId;
        }

        /** Extends the lease by {@code lease-ttl}; false when it was lost (it expired and another instance took it). */
        public boolean renew() {
            boolean kept = update("UPDATE action_leases SET expires_at = now() + make_interval(secs => ?)"
                    + " WHERE action_id = ? AND owner = ?", seconds(), actionId, owner) == 1;
            if (!kept) {
                held.remove(actionId);
            }
            return kept;
        }

        @Override
        public void close() {
            held.remove(actionId);
            try {
                update("DELETE FROM action_leases WHERE action_id = ? AND owner = ?", actionId, owner);
            } catch (IllegalStateException e) {
                LOG.warnf("action %s: giving its lease up failed (it expires within %s): %s", actionId, ttl, e.getMessage());
            }
        }
    }

    /** A direct step's claim on its node; closing it releases the node. */
    public final class NodeLease implements AutoCloseable {

        private final String node;
        private final String claim;

        private NodeLease(String node, String claim) {
            this.node = node;
            this.claim = claim;
        }

        /**
         * Extends the claim by {@code lease-ttl}: true while this step still holds its node. False when the claim
         * lapsed (the database out of reach past lease-ttl) and an action or another step took the node over: the
         * step must not go on. Called between a step's parts, so that no part starts on a node someone else holds.
         */
        public boolean renew() {
            boolean kept = update("UPDATE node_claims SET expires_at = now() + make_interval(secs => ?) WHERE claim = ?",
                    seconds(), claim) == 1;
            if (!kept) {
                heldNodes.remove(claim);
            }
            return kept;
        }

        /** The node this claim is on. */
        public String node() {
            return node;
        }

        @Override
        public void close() {
            heldNodes.remove(claim);
            try {
                update("DELETE FROM node_claims WHERE claim = ?", claim);
            } catch (IllegalStateException e) {
                LOG.warnf("node %s: releasing its direct step's claim failed (it lapses within %s): %s", node, ttl, e.getMessage());
            }
        }
    }

    /**
     * Claims {@code node} for the direct step {@code step}, or throws {@link NodeClaimed} while an unfinished action
     * or another direct step holds it. A direct claim that has lapsed (its instance died) is taken over.
     */
    public NodeLease claimNode(String node, String step) {
        String claim = UUID.randomUUID().toString();
        int taken = update("INSERT INTO node_claims (node, step, claim, expires_at) VALUES (?, ?, ?, now() + make_interval(secs => ?))"
                + " ON CONFLICT (node) DO UPDATE SET step = EXCLUDED.step, claim = EXCLUDED.claim, expires_at = EXCLUDED.expires_at"
                + " WHERE node_claims.action_id IS NULL AND node_claims.expires_at <= now()", node, step, claim, seconds());
        if (taken == 1) {
            heldNodes.add(claim);
            return new NodeLease(node, claim);
        }
        try (Connection c = db.getConnection(); PreparedStatement holder = c.prepareStatement(
                "SELECT action_id, step FROM node_claims WHERE node = ?")) {
            holder.setString(1, node);
            try (java.sql.ResultSet rs = holder.executeQuery()) {
                if (!rs.next()) {
                    throw NodeClaimed.byWhoever(node); // released just now; the caller may try again
                }
                throw NodeClaimed.by(node, rs.getString(1), rs.getString(2));
            }
        } catch (SQLException e) {
            throw new IllegalStateException("node claims: " + e.getMessage(), e);
        }
    }

    public String owner() {
        return owner;
    }

    /** The lease on action {@code id}, or empty while another instance holds one that has not expired. */
    public Optional<Lease> tryTake(String id) {
        int taken = update("INSERT INTO action_leases (action_id, owner, expires_at) VALUES (?, ?, now() + make_interval(secs => ?))"
                + " ON CONFLICT (action_id) DO UPDATE SET owner = EXCLUDED.owner, expires_at = EXCLUDED.expires_at"
                + " WHERE action_leases.expires_at < now() OR action_leases.owner = EXCLUDED.owner", id, owner, seconds());
        if (taken != 1) {
            return Optional.empty();
        }
        held.add(id);
        return Optional.of(new Lease(id));
    }

    /** The heartbeat: renews every lease and direct step claim this instance holds; answers how many it kept. */
    public int renewHeld() {
        int kept = 0;
        if (!held.isEmpty()) {
            kept += update("UPDATE action_leases SET expires_at = now() + make_interval(secs => ?)"
                    + " WHERE owner = ? AND action_id = ANY (?)", seconds(), owner, held.toArray(String[]::new));
        }
        if (!heldNodes.isEmpty()) {
            String[] claims = heldNodes.toArray(String[]::new);
            int renewed = update("UPDATE node_claims SET expires_at = now() + make_interval(secs => ?) WHERE claim = ANY (?)",
                    seconds(), claims);
            if (renewed < claims.length) { // lapsed and taken over, or released meanwhile by a step just ending
                LOG.warnf("%d of this instance's %d direct step claims were not renewed: lapsed (the database was out of"
                        + " reach past %s) or released just now", claims.length - renewed, claims.length, ttl);
            }
            kept += renewed;
        }
        return kept;
    }

    void start(@Observes StartupEvent started) {
        heartbeat = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread thread = new Thread(r, "teardown-lease-heartbeat");
            thread.setDaemon(true);
            return thread;
        });
        long every = Math.max(1, ttl.toMillis() / 3);
        heartbeat.scheduleWithFixedDelay(this::beat, every, every, TimeUnit.MILLISECONDS);
    }

    void stop(@Observes ShutdownEvent stopping) {
        if (heartbeat != null) {
            heartbeat.shutdownNow();
        }
    }

    private void beat() {
        try {
            renewHeld();
        } catch (RuntimeException e) {
            LOG.warnf("renewing this instance's action leases failed (they expire after %s): %s", ttl, e.getMessage());
        }
    }

    private double seconds() {
        return ttl.toMillis() / 1000.0;
    }

    private int update(String sql, Object... values) {
        try (Connection c = db.getConnection(); PreparedStatement statement = c.prepareStatement(sql)) {
            for (int i = 0; i < values.length; i++) {
                statement.setObject(i + 1, values[i] instanceof String[] array ? c.createArrayOf("text", array) : values[i]);
            }
            return statement.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException("action leases: " + e.getMessage(), e);
        }
    }

    // Unique per process: two instances on one host, or a restart, never share leases by accident.
    private static String defaultInstanceId() {
        String host;
        try {
            host = java.net.InetAddress.getLocalHost().getHostName();
        } catch (java.net.UnknownHostException e) {
            host = "teardown";
        }
        return host + "-" + ProcessHandle.current().pid() + "-" + UUID.randomUUID().toString().substring(0, 8);
    }
}
