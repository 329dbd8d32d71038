package io.ironflow.teardown.ironflow;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.MissingNode;
import jakarta.enterprise.context.ApplicationScoped;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * The operator's own {@code properties.skip_block_devices} of a node, as it was before a preserve-local-storage
 * destroy replaced it ({@code teardown.preserved_skip_lists}). The first {@link #remember} of an action and node wins,
 * so a step run again after a restart, which sees the destroy's own list on the node, still restores the operator's.
 */
@ApplicationScoped
public class OperatorSkipLists {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final DataSource db;

    OperatorSkipLists(DataSource db) {
        this.db = db;
    }

    /** Keeps {@code current} (missing: none) unless this action already kept the node's list. */
    public void remember(String actionId, String node, JsonNode current) {
        try (Connection c = db.getConnection(); PreparedStatement insert = c.prepareStatement(
                "INSERT INTO preserved_skip_lists (action_id, node, original) VALUES (?, ?, ?) ON CONFLICT DO NOTHING")) {
            insert.setString(1, actionId);
            insert.setString(2, node);
            insert.setString(3, current.isMissingNode() || current.isNull() ? null : current.toString());
            insert.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException("keeping the operator's skip list failed: " + e.getMessage(), e);
        }
    }

    /**
     * What this action kept: empty when it replaced no list on the node (it has nothing to restore), else the
     * operator's list, a missing node when there was none.
     */
    public Optional<JsonNode> original(String actionId, String node) {
        try (Connection c = db.getConnection(); PreparedStatement select = c.prepareStatement(
                "SELECT original FROM preserved_skip_lists WHERE action_id = ? AND node = ?")) {
            select.setString(1, actionId);
            select.setString(2, node);
            try (ResultSet rs = select.executeQuery()) {
                if (!rs.next()) {
                    return Optional.empty();
                }
                String original = rs.getString(1);
                return Optional.of(original == null ? MissingNode.getInstance() : JSON.readTree(original));
            }
        } catch (SQLException | com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException("reading the operator's skip list failed: " + e.getMessage(), e);
        }
    }
}
