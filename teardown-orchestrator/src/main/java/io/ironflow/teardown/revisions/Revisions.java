package io.ironflow.teardown.revisions;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.agroal.api.AgroalDataSource;
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
import java.util.Optional;
import java.util.TreeMap;

/**
 * Site-design revisions, the minimal Deckhand the teardown spec needs: a buffer of YAML collections, commits that
 * snapshot every collection as a numbered revision (1, 2, ...), and the site-action tags
 * ({@code site-action-success}, {@code site-action-failure}, data {@code action_id:<id>}) that give the versions
 * {@code successful-site-action} and {@code last-site-action} their meaning.
 */
@ApplicationScoped
public class Revisions {

    public static final String BUFFER = "buffer";
    public static final String COMMITTED = "committed";
    public static final String SUCCESSFUL_SITE_ACTION = "successful-site-action";
    public static final String LAST_SITE_ACTION = "last-site-action";
    public static final List<String> VERSIONS = List.of(BUFFER, COMMITTED, SUCCESSFUL_SITE_ACTION, LAST_SITE_ACTION);
    public static final String SUCCESS_TAG = "site-action-success";
    public static final String FAILURE_TAG = "site-action-failure";

    @Inject
    AgroalDataSource db;

    @Inject
    ObjectMapper json;

    public void putBuffer(String collection, String yaml) {
        update("INSERT INTO configdocs_buffer (collection, documents) VALUES (?, ?)"
                + " ON CONFLICT (collection) DO UPDATE SET documents = excluded.documents", collection, yaml);
    }

    /** Commits the buffer over the last revision as the next revision; empty when the buffer is empty. */
    public synchronized Optional<Integer> commit() {
        Map<String, String> buffer = bufferOnly();
        if (buffer.isEmpty()) {
            return Optional.empty();
        }
        Map<String, String> documents = new TreeMap<>(latest(COMMITTED).map(this::documentsAt).orElse(Map.of()));
        documents.putAll(buffer);
        try (Connection c = db.getConnection()) {
            c.setAutoCommit(false);
            try (PreparedStatement next = c.prepareStatement("SELECT coalesce(max(id), 0) + 1 FROM revisions");
                    PreparedStatement insert = c.prepareStatement("INSERT INTO revisions (id, created_at, documents) VALUES (?, ?, ?)");
                    PreparedStatement clear = c.prepareStatement("DELETE FROM configdocs_buffer")) {
                int id;
                try (ResultSet rs = next.executeQuery()) {
                    rs.next();
                    id = rs.getInt(1);
                }
                insert.setInt(1, id);
                insert.setTimestamp(2, Timestamp.from(Instant.now()));
                insert.setString(3, json.writeValueAsString(documents));
                insert.executeUpdate();
                clear.executeUpdate();
                c.commit();
                return Optional.of(id);
            } catch (SQLException | JsonProcessingException e) {
                c.rollback();
                throw new IllegalStateException("commit failed: " + e.getMessage(), e);
            }
        } catch (SQLException e) {
            throw new IllegalStateException("commit failed: " + e.getMessage(), e);
        }
    }

    /** The revision a committed version names (not {@code buffer}), if there is one. */
    public Optional<Integer> latest(String version) {
        String sql = switch (version) {
            case COMMITTED -> "SELECT max(id) FROM revisions";
            case SUCCESSFUL_SITE_ACTION -> "SELECT max(revision_id) FROM revision_tags WHERE tag = 'site-action-success'";
            case LAST_SITE_ACTION -> "SELECT max(revision_id) FROM revision_tags";
            default -> throw new IllegalArgumentException("not a committed version: " + version);
        };
        List<Integer> ids = ints(sql);
        return ids.isEmpty() || ids.get(0) == null ? Optional.empty() : Optional.of(ids.get(0));
    }

    /** Every collection of {@code version}; empty when the version names no revision. */
    public Optional<Map<String, String>> documentsOf(String version) {
        if (BUFFER.equals(version)) {
            Map<String, String> documents = new TreeMap<>(latest(COMMITTED).map(this::documentsAt).orElse(Map.of()));
            documents.putAll(bufferOnly());
            return Optional.of(documents);
        }
        return latest(version).map(this::documentsAt);
    }

    public boolean bufferEmpty() {
        return bufferOnly().isEmpty();
    }

    /** The committed revisions strictly between {@code after} and {@code before} that carry no site-action tag. */
    public List<Integer> untaggedBetween(int after, int before) {
        return ints("SELECT id FROM revisions r WHERE id > ? AND id < ? AND NOT EXISTS"
                + " (SELECT 1 FROM revision_tags t WHERE t.revision_id = r.id) ORDER BY id", after, before);
    }

    /** Every tag of a revision, e.g. {@code site-action-success action_id:01H...}. */
    public List<String> tags(int revision) {
        List<String> tags = new ArrayList<>();
        try (Connection c = db.getConnection();
                PreparedStatement s = c.prepareStatement("SELECT tag, data FROM revision_tags WHERE revision_id = ? ORDER BY created_at")) {
            s.setInt(1, revision);
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    tags.add(rs.getString(1) + " " + rs.getString(2));
                }
            }
            return tags;
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Every collection of revision {@code revision} (empty when there is no such revision). */
    public Map<String, String> documentsAt(int revision) {
        try (Connection c = db.getConnection(); PreparedStatement s = c.prepareStatement("SELECT documents FROM revisions WHERE id = ?")) {
            s.setInt(1, revision);
            try (ResultSet rs = s.executeQuery()) {
                return rs.next() ? json.readValue(rs.getString(1), new TypeReference<TreeMap<String, String>>() { }) : Map.of();
            }
        } catch (SQLException | JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private Map<String, String> bufferOnly() {
        Map<String, String> buffer = new TreeMap<>();
        try (Connection c = db.getConnection(); PreparedStatement s = c.prepareStatement("SELECT collection, documents FROM configdocs_buffer");
                ResultSet rs = s.executeQuery()) {
            while (rs.next()) {
                buffer.put(rs.getString(1), rs.getString(2));
            }
            return buffer;
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private List<Integer> ints(String sql, Object... args) {
        try (Connection c = db.getConnection(); PreparedStatement s = c.prepareStatement(sql)) {
            for (int i = 0; i < args.length; i++) {
                s.setObject(i + 1, args[i]);
            }
            List<Integer> values = new ArrayList<>();
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    values.add((Integer) rs.getObject(1));
                }
            }
            return values;
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private void update(String sql, Object... args) {
        try (Connection c = db.getConnection(); PreparedStatement s = c.prepareStatement(sql)) {
            for (int i = 0; i < args.length; i++) {
                s.setObject(i + 1, args[i]);
            }
            s.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
