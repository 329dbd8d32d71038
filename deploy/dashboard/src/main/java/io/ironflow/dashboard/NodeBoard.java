package io.ironflow.dashboard;

import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;
import org.apache.avro.generic.GenericRecord;

/**
 * The dashboard's view of every node, built only from what the conductors publish: the latest snapshot per node
 * ({@code ironflow.node-state}, compacted) and recent transitions ({@code ironflow.node-events}).
 *
 * <p>Records are read by field name with the writer's schema ({@code NodeSnapshot}, {@code NodeEvent} in schemas),
 * so a dashboard keeps working while producers add fields.
 *
 * <p>Contract: one writer (the {@link TopicFeed} thread) calls {@link #apply} and {@link #record}; any thread may
 * read. Snapshots older than the one held (by revision) are dropped, so replays and duplicates change nothing; a
 * tombstone removes the node. Events are deduplicated on their id (the relay publishes at least once). Memory is
 * bounded: the last {@value #FEED_SIZE} events for the feed and {@value #HISTORY_PER_NODE} per node.
 */
@ApplicationScoped
public class NodeBoard {

    static final int FEED_SIZE = 500;
    static final int HISTORY_PER_NODE = 100;
    private static final int SEEN_EVENT_IDS = 20_000;

    private final Map<String, NodeRow> nodes = new ConcurrentHashMap<>();
    private final Map<String, Integer> byState = new ConcurrentHashMap<>();
    private final Map<String, Deque<Transition>> histories = new ConcurrentHashMap<>();
    private final Deque<Transition> feed = new ArrayDeque<>();
    private final Map<String, Boolean> seenEvents = new LinkedHashMap<>(1024, 0.75f, false) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Boolean> eldest) {
            return size() > SEEN_EVENT_IDS;
        }
    };
    private volatile long sequence;

    /** Takes a node's snapshot, or its deletion when {@code snapshot} is null (a tombstone). */
    public void apply(String uuid, GenericRecord snapshot) {
        NodeRow held = nodes.get(uuid);
        if (snapshot == null) {
            if (held != null) {
                nodes.remove(uuid);
                histories.remove(uuid);
                count(held.provisionState(), -1);
                sequence++;
            }
            return;
        }
        if (held != null && held.revision() >= (Long) snapshot.get("revision")) {
            return;
        }
        NodeRow row = NodeRow.of(snapshot);
        nodes.put(uuid, row);
        if (held != null) {
            count(held.provisionState(), -1);
        }
        count(row.provisionState(), +1);
        sequence++;
    }

    /** Takes one committed transition; a duplicate (same event id) is ignored. */
    public void record(GenericRecord event) {
        String id = text(event, "eventId");
        synchronized (seenEvents) {
            if (seenEvents.put(id, Boolean.TRUE) != null) {
                return;
            }
        }
        long seq = ++sequence;
        Transition transition = Transition.of(seq, event);
        synchronized (feed) {
            feed.addLast(transition);
            if (feed.size() > FEED_SIZE) {
                feed.removeFirst();
            }
        }
        if (transition.toState() == null) {
            histories.remove(transition.nodeUuid());
            return;
        }
        Deque<Transition> history = histories.computeIfAbsent(transition.nodeUuid(), uuid -> new ArrayDeque<>());
        synchronized (history) {
            history.addLast(transition);
            if (history.size() > HISTORY_PER_NODE) {
                history.removeFirst();
            }
        }
    }

    private void count(String state, int delta) {
        byState.merge(state, delta, (a, b) -> a + b == 0 ? null : a + b);
    }

    /** Grows with every change the board takes; a reader that saw a value knows whether anything moved since. */
    public long sequence() {
        return sequence;
    }

    /** Node counts: per provision state (sorted by name), in maintenance, retired, and in all. */
    public Summary summary() {
        int maintenance = 0;
        int retired = 0;
        for (NodeRow row : nodes.values()) {
            maintenance += row.maintenance() ? 1 : 0;
            retired += row.retired() ? 1 : 0;
        }
        return new Summary(sequence, nodes.size(), new TreeMap<>(byState), maintenance, retired);
    }

    /** The nodes that pass {@code filter}, most recently changed first, at most {@code limit} of them. */
    public Page query(Filter filter, int limit) {
        List<NodeRow> matching = nodes.values().stream().filter(filter).toList();
        List<NodeRow> shown = matching.stream()
                .sorted(Comparator.comparingLong(NodeRow::updatedAt).reversed().thenComparing(NodeRow::uuid))
                .limit(limit).toList();
        return new Page(matching.size(), shown);
    }

    /** One node with its recent transitions, oldest first. */
    public Optional<NodeDetail> node(String uuidOrName) {
        NodeRow row = nodes.get(uuidOrName);
        if (row == null) {
            row = nodes.values().stream().filter(n -> uuidOrName.equals(n.name())).findFirst().orElse(null);
        }
        if (row == null) {
            return Optional.empty();
        }
        Deque<Transition> history = histories.get(row.uuid());
        List<Transition> transitions;
        if (history == null) {
            transitions = List.of();
        } else {
            synchronized (history) {
                transitions = List.copyOf(history);
            }
        }
        return Optional.of(new NodeDetail(row, transitions));
    }

    /** The feed's transitions with a sequence above {@code after}, oldest first, at most {@code max}. */
    public List<Transition> transitionsAfter(long after, int max) {
        List<Transition> newer = new ArrayList<>();
        synchronized (feed) {
            var it = feed.descendingIterator();
            while (it.hasNext() && newer.size() < max) {
                Transition t = it.next();
                if (t.seq() <= after) {
                    break;
                }
                newer.add(t);
            }
        }
        Collections.reverse(newer);
        return newer;
    }

    /** A string field (Avro hands out Utf8), null when absent or null. */
    static String text(GenericRecord record, String field) {
        Object value = record.hasField(field) ? record.get(field) : null;
        return value == null ? null : value.toString();
    }

    /** A timestamp-millis field, as the generic reader gives it (a long, or an Instant with logical types on). */
    static long millis(Object value) {
        return value instanceof java.time.Instant instant ? instant.toEpochMilli() : value == null ? 0 : (Long) value;
    }

    /** What the table shows of a node. */
    public record NodeRow(String uuid, long revision, String name, String driver, String provisionState,
            String targetProvisionState, String powerState, boolean maintenance, String maintenanceReason,
            boolean retired, String retiredReason, String lastError, String conductor, long updatedAt) {

        static NodeRow of(GenericRecord s) {
            Object updated = s.get("updatedAt") != null ? s.get("updatedAt") : s.get("createdAt");
            return new NodeRow(text(s, "uuid"), (Long) s.get("revision"), text(s, "name"), text(s, "driver"),
                    text(s, "provisionState"), text(s, "targetProvisionState"), text(s, "powerState"),
                    Boolean.TRUE.equals(s.get("maintenance")), text(s, "maintenanceReason"),
                    Boolean.TRUE.equals(s.get("retired")), text(s, "retiredReason"), text(s, "lastError"),
                    text(s, "conductor"), millis(updated));
        }
    }

    /** One transition as the feed and the timeline show it. */
    public record Transition(long seq, String nodeUuid, String fromState, String event, String toState,
            String intentId, String conductor, long occurredAt) {

        static Transition of(long seq, GenericRecord e) {
            return new Transition(seq, text(e, "nodeUuid"), text(e, "fromState"), text(e, "event"), text(e, "toState"),
                    text(e, "intentId"), text(e, "conductor"), millis(e.get("occurredAt")));
        }
    }

    /** The counts at the top of the page. */
    public record Summary(long seq, int total, Map<String, Integer> byState, int maintenance, int retired) {
    }

    /** A filtered slice of the table, and how many nodes matched in all. */
    public record Page(int total, List<NodeRow> nodes) {
    }

    /** A node and its recent transitions. */
    public record NodeDetail(NodeRow node, List<Transition> history) {
    }

    /**
     * The table's filter: a provision state, maintenance and retired flags (null: either), and a search text
     * matched case-insensitively against name and uuid.
     */
    public record Filter(String state, Boolean maintenance, Boolean retired, String search) implements Predicate<NodeRow> {

        @Override
        public boolean test(NodeRow row) {
            if (state != null && !state.equals(row.provisionState())) {
                return false;
            }
            if (maintenance != null && maintenance != row.maintenance()) {
                return false;
            }
            if (retired != null && retired != row.retired()) {
                return false;
            }
            if (search == null || search.isEmpty()) {
                return true;
            }
            String needle = search.toLowerCase(Locale.ROOT);
            return row.uuid().contains(needle)
                    || (row.name() != null && row.name().toLowerCase(Locale.ROOT).contains(needle));
        }
    }
}
