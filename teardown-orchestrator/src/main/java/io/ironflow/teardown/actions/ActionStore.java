package io.ironflow.teardown.actions;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.agroal.api.AgroalDataSource;
import io.ironflow.events.TeardownStepEvent;
import io.ironflow.teardown.status.StepFailure;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Actions, their steps and the node claims in PostgreSQL (schema {@code teardown}), over plain JDBC: every change
 * is one short transaction, so a killed orchestrator leaves each action at a step boundary or inside one step,
 * which then runs again (steps are idempotent). A step's change and the events announcing it are written in one
 * transaction, the events to the outbox ({@link OutboxRelay} publishes them), so no stored change goes unannounced.
 */
@ApplicationScoped
public class ActionStore {

    /** One planned step: the node it is for (null: action-wide) and its name. */
    public record PlannedStep(String node, String step) {
    }

    @Inject
    AgroalDataSource db;

    @Inject
    ObjectMapper json;

    /**
     * Stores a Pending action with its steps and claims its nodes, or throws {@link ActionConflict} (an unfinished
     * action it conflicts with) or {@link NodeClaimed} and stores nothing.
     */
    public void create(String id, String name, Map<String, Object> parameters, String user, String contextMarker,
            List<PlannedStep> steps, List<String> nodes) {
        List<String> claimOrder = nodes.stream().sorted().toList();
        try (Connection c = db.getConnection()) {
            c.setAutoCommit(false);
            try {
                refuseConflicts(c, name);
                Instant now = Instant.now(); // after the lock: later than the end of every action it found ended
                try (PreparedStatement lapsed = c.prepareStatement("DELETE FROM node_claims WHERE node = ? AND action_id IS NULL"
                        + " AND expires_at <= now()");
                        PreparedStatement claim = c.prepareStatement("SELECT action_id, step FROM node_claims WHERE node = ? FOR UPDATE")) {
                    for (String node : claimOrder) { // one order for every creation: two cannot deadlock on their claims
                        lapsed.setString(1, node); // a direct step's claim whose process died
                        lapsed.executeUpdate();
                        claim.setString(1, node);
                        try (ResultSet rs = claim.executeQuery()) {
                            if (rs.next()) {
                                throw NodeClaimed.by(node, rs.getString(1), rs.getString(2));
                            }
                        }
                    }
                }
                try (PreparedStatement insert = c.prepareStatement("INSERT INTO actions (id, name, parameters, requested_by, context_marker,"
                        + " created_at, lifecycle, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)")) {
                    insert.setString(1, id);
                    insert.setString(2, name);
                    insert.setString(3, json.writeValueAsString(parameters));
                    insert.setString(4, user);
                    insert.setString(5, contextMarker);
                    insert.setTimestamp(6, Timestamp.from(now));
                    insert.setString(7, Lifecycle.PENDING);
                    insert.setTimestamp(8, Timestamp.from(now));
                    insert.executeUpdate();
                }
                try (PreparedStatement insert = c.prepareStatement("INSERT INTO action_steps (action_id, seq, node, step, status) VALUES (?, ?, ?, ?, ?)")) {
                    for (int i = 0; i < steps.size(); i++) {
                        insert.setString(1, id);
                        insert.setInt(2, i);
                        insert.setString(3, steps.get(i).node());
                        insert.setString(4, steps.get(i).step());
                        insert.setString(5, Lifecycle.STEP_PENDING);
                        insert.addBatch();
                    }
                    insert.executeBatch();
                }
                try (PreparedStatement insert = c.prepareStatement("INSERT INTO node_claims (node, action_id) VALUES (?, ?)")) {
                    for (String node : claimOrder) {
                        insert.setString(1, node);
                        insert.setString(2, id);
                        insert.executeUpdate();
                    }
                }
                c.commit();
            } catch (SQLException e) {
                c.rollback();
                if ("23505".equals(e.getSQLState())) { // a concurrent action or direct step claimed the node first
                    throw NodeClaimed.byWhoever(String.join(",", nodes));
                }
                throw e;
            } catch (RuntimeException | JsonProcessingException e) {
                c.rollback();
                throw e instanceof RuntimeException r ? r : new IllegalStateException(e);
            }
        } catch (SQLException e) {
            throw new IllegalStateException("the action store failed: " + e.getMessage(), e);
        }
    }

    /** Serializes creations across instances, so two cannot both miss the other's conflicting action. */
    private static final long CREATIONS = 0x7EA2_C4EAL;
    /** How long a creation waits for another's: one stuck (its database connection hung) must not stop the rest. */
    private static final String CREATION_LOCK_WAIT = "5s";

    /**
     * Throws {@link ActionConflict} when an action {@code name} conflicts with has not ended (Paused included), and
     * a 503 when another creation held the lock longer than {@link #CREATION_LOCK_WAIT}.
     */
    private static void refuseConflicts(Connection c, String name) throws SQLException {
        try (PreparedStatement wait = c.prepareStatement("SET LOCAL lock_timeout = '" + CREATION_LOCK_WAIT + "'");
                PreparedStatement lock = c.prepareStatement("SELECT pg_advisory_xact_lock(?)")) {
            wait.execute();
            lock.setLong(1, CREATIONS);
            lock.execute();
        } catch (SQLException e) {
            if ("55P03".equals(e.getSQLState())) { // lock_not_available
                throw new StepFailure(503, "ServiceUnavailable", "another action's creation has held the creation lock for "
                        + CREATION_LOCK_WAIT + "; nothing was stored, try again");
            }
            throw e;
        }
        try (PreparedStatement running = c.prepareStatement("SELECT id, name, lifecycle FROM actions"
                + " WHERE lifecycle IN ('Pending', 'Processing', 'Paused') ORDER BY id")) {
            try (ResultSet rs = running.executeQuery()) {
                while (rs.next()) {
                    if (ActionConflict.conflicts(name, rs.getString(2))) {
                        throw new ActionConflict(name, rs.getString(2), rs.getString(1), rs.getString(3));
                    }
                }
            }
        }
    }

    /** The tag a deploy_site's end puts on the revision it ran (revisions' site-action-success or -failure). */
    public record SiteActionTag(int revision, String tag) {
    }

    public Action find(String id) {
        List<Action> found = query("SELECT * FROM actions WHERE id = ?", id);
        return found.isEmpty() ? null : found.get(0);
    }

    public List<Action> all() {
        return query("SELECT * FROM actions ORDER BY id");
    }

    /**
     * The actions a restarted orchestrator, or the rescan, must go on with: Pending and Processing ones, and a Paused
     * one with a stop requested. That stop's own start of the runner is lost when it comes while the pausing run is
     * still on its way out (or holds the lease on another instance); the rescan then ends the action.
     */
    public List<String> unfinished() {
        return query("SELECT * FROM actions WHERE lifecycle IN ('Pending', 'Processing') OR (lifecycle = 'Paused' AND stop_requested)"
                + " ORDER BY id").stream().map(Action::id).toList();
    }

    /** Sets the lifecycle of a running action, if {@code owner} still holds its lease (else {@link LeaseLost}). */
    public void lifecycle(String id, String lifecycle, String owner) {
        inTransaction(id, owner, List.of(), "UPDATE actions SET lifecycle = ?, updated_at = now() WHERE id = ?", lifecycle, id);
    }

    /** Ends the action and releases its nodes, if {@code owner} still holds its lease (else {@link LeaseLost}). */
    public void finish(String id, String lifecycle, String owner) {
        finish(id, lifecycle, owner, null);
    }

    /**
     * Ends the action, releases its nodes and, with a {@code tag}, tags the site revision a deploy_site ran
     * (Shipyard's site-action-success or -failure), all in one transaction fenced on the lease: an instance that
     * lost the lease tags nothing, and a crash cannot leave a tag without the end (a second tag at the rerun).
     */
    public void finish(String id, String lifecycle, String owner, SiteActionTag tag) {
        try (Connection c = db.getConnection()) {
            c.setAutoCommit(false);
            try (PreparedStatement a = c.prepareStatement("UPDATE actions SET lifecycle = ?, updated_at = now() WHERE id = ?");
                    PreparedStatement claims = c.prepareStatement("DELETE FROM node_claims WHERE action_id = ?");
                    PreparedStatement tags = c.prepareStatement("INSERT INTO revision_tags (revision_id, tag, data, created_at)"
                            + " VALUES (?, ?, ?, now())")) {
                fence(c, id, owner);
                a.setString(1, lifecycle);
                a.setString(2, id);
                a.executeUpdate();
                claims.setString(1, id);
                claims.executeUpdate();
                if (tag != null) {
                    tags.setInt(1, tag.revision());
                    tags.setString(2, tag.tag());
                    tags.setString(3, "action_id:" + id);
                    tags.executeUpdate();
                }
                c.commit();
            } catch (SQLException | RuntimeException e) {
                c.rollback();
                throw e;
            }
        } catch (SQLException e) {
            throw new IllegalStateException("the action store failed: " + e.getMessage(), e);
        }
    }

    /**
     * The fence of every write a runner makes: {@code owner} must still hold the action's unexpired lease, else the
     * transaction writes nothing ({@link LeaseLost}). The lease row is locked FOR SHARE until the commit, so another
     * instance cannot take the lease over between this check and the write.
     */
    private static void fence(Connection c, String id, String owner) throws SQLException {
        try (PreparedStatement held = c.prepareStatement("SELECT 1 FROM action_leases WHERE action_id = ? AND owner = ?"
                + " AND expires_at > now() FOR SHARE")) {
            held.setString(1, id);
            held.setString(2, owner);
            try (ResultSet rs = held.executeQuery()) {
                if (!rs.next()) {
                    throw new LeaseLost(id, owner);
                }
            }
        }
    }

    /**
     * Rests the action Paused if a pause is still requested (and no stop): false when an unpause or a stop came
     * after the runner read the request, which then goes on instead of resting an action nobody wants paused.
     */
    public boolean pauseIfRequested(String id) {
        return update("UPDATE actions SET lifecycle = 'Paused', updated_at = now() WHERE id = ? AND pause_requested"
                + " AND NOT stop_requested AND lifecycle NOT IN ('Complete', 'Failed')", id) == 1;
    }

    /**
     * Withdraws a pause, requested or taken, in one statement (so a runner's {@link #pauseIfRequested} comes before
     * or after it, never between): a Paused action becomes Pending again. False when there was none to withdraw.
     */
    public boolean unpause(String id) {
        return update("UPDATE actions SET pause_requested = false, lifecycle = CASE WHEN lifecycle = 'Paused' THEN 'Pending'"
                + " ELSE lifecycle END, updated_at = now() WHERE id = ? AND lifecycle NOT IN ('Complete', 'Failed')"
                + " AND (pause_requested OR lifecycle = 'Paused')", id) == 1;
    }

    /** Sets a control flag on an unfinished action; false when the action is finished or unknown. */
    public boolean request(String id, String column, boolean value) {
        if (!column.equals("pause_requested") && !column.equals("stop_requested")) {
            throw new IllegalArgumentException(column);
        }
        return update("UPDATE actions SET " + column + " = ?, updated_at = now() WHERE id = ? AND lifecycle NOT IN ('Complete', 'Failed')",
                value, id) == 1;
    }

    /**
     * The step runs now; {@code events} go to the outbox in the same transaction. Only while {@code owner} holds the
     * action's lease (else {@link LeaseLost}, nothing written).
     */
    public void stepStarted(String id, int seq, List<TeardownStepEvent> events, String owner) {
        inTransaction(id, owner, events, "UPDATE action_steps SET status = 'running', started_at = now(), finished_at = NULL"
                + " WHERE action_id = ? AND seq = ?", id, seq);
    }

    /**
     * The step ended ({@code status}); {@code events} go to the outbox in the same transaction. Only while
     * {@code owner} holds the action's lease (else {@link LeaseLost}, nothing written).
     */
    public void stepFinished(String id, int seq, String status, String message, String result, List<TeardownStepEvent> events,
            String owner) {
        inTransaction(id, owner, events, "UPDATE action_steps SET status = ?, finished_at = now(), message = ?, result = ?"
                + " WHERE action_id = ? AND seq = ?", status, message, result, id, seq);
    }

    private void inTransaction(String id, String owner, List<TeardownStepEvent> events, String sql, Object... args) {
        try (Connection c = db.getConnection()) {
            c.setAutoCommit(false);
            try (PreparedStatement s = c.prepareStatement(sql); PreparedStatement outbox = c.prepareStatement(
                    "INSERT INTO outbox (event_key, action_id, node_uuid, node_name, step, status, message, target_revision, occurred_at)"
                            + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
                fence(c, id, owner);
                for (int i = 0; i < args.length; i++) {
                    s.setObject(i + 1, args[i]);
                }
                s.executeUpdate();
                for (TeardownStepEvent e : events) {
                    outbox.setString(1, TeardownEvents.key(e));
                    outbox.setString(2, e.getActionId());
                    outbox.setString(3, e.getNodeUuid());
                    outbox.setString(4, e.getNodeName());
                    outbox.setString(5, e.getStep());
                    outbox.setString(6, e.getStatus());
                    outbox.setString(7, e.getMessage());
                    outbox.setObject(8, e.getTargetRevision());
                    outbox.setTimestamp(9, Timestamp.from(e.getOccurredAt()));
                    outbox.addBatch();
                }
                outbox.executeBatch();
                c.commit();
            } catch (SQLException | RuntimeException e) {
                c.rollback();
                throw e;
            }
        } catch (SQLException e) {
            throw new IllegalStateException("the action store failed: " + e.getMessage(), e);
        }
    }

    private int update(String sql, Object... args) {
        try (Connection c = db.getConnection(); PreparedStatement s = c.prepareStatement(sql)) {
            for (int i = 0; i < args.length; i++) {
                s.setObject(i + 1, args[i]);
            }
            return s.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException("the action store failed: " + e.getMessage(), e);
        }
    }

    private List<Action> query(String sql, Object... args) {
        try (Connection c = db.getConnection(); PreparedStatement s = c.prepareStatement(sql)) {
            for (int i = 0; i < args.length; i++) {
                s.setObject(i + 1, args[i]);
            }
            List<Action> actions = new ArrayList<>();
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    actions.add(new Action(rs.getString("id"), rs.getString("name"),
                            json.readValue(rs.getString("parameters"), new TypeReference<Map<String, Object>>() { }),
                            rs.getString("requested_by"), rs.getString("context_marker"), rs.getTimestamp("created_at").toInstant(),
                            rs.getString("lifecycle"), rs.getBoolean("pause_requested"), rs.getBoolean("stop_requested"),
                            rs.getTimestamp("updated_at").toInstant(), steps(c, rs.getString("id"))));
                }
            }
            return actions;
        } catch (SQLException | JsonProcessingException e) {
            throw new IllegalStateException("the action store failed: " + e.getMessage(), e);
        }
    }

    private static List<Action.Step> steps(Connection c, String id) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("SELECT * FROM action_steps WHERE action_id = ? ORDER BY seq")) {
            s.setString(1, id);
            List<Action.Step> steps = new ArrayList<>();
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    steps.add(new Action.Step(rs.getInt("seq"), rs.getString("node"), rs.getString("step"), rs.getString("status"),
                            instant(rs.getTimestamp("started_at")), instant(rs.getTimestamp("finished_at")), rs.getString("message")));
                }
            }
            return steps;
        }
    }

    private static Instant instant(Timestamp t) {
        return t == null ? null : t.toInstant();
    }
}
