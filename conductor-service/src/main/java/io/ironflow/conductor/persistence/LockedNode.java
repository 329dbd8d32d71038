package io.ironflow.conductor.persistence;

import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import jakarta.persistence.LockModeType;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;

/**
 * An intent's node, locked FOR UPDATE in the intent's transaction, and the answer already recorded for the intent,
 * if any. {@code node} is null when the node does not exist, or when the intent was answered (an answer is given
 * again, never applied again, so nothing is locked for it); {@code answered} is null for an intent not answered yet.
 * <p>
 * The common case, an intent seen for the first time on a node that exists, is one statement: the node FOR UPDATE
 * provided that the intent has no answer. Only when that finds no row is the answer looked up (a second round trip,
 * for a redelivery or a node that does not exist). The answer is read as the statement's snapshot saw it, which may
 * be before an abandoned attempt of the same intent committed (the statement may wait for the lock that attempt
 * held): applying it again is still harmless, since the processed intent's key admits one answer per intent and the
 * second is answered again from the first.
 */
public record LockedNode(NodeEntity node, ProcessedIntent answered) {

    private static final String UNANSWERED = "from NodeEntity n where n.uuid = :node"
            + " and not exists (from ProcessedIntent p where p.intentId = :intent)";

    /** Node {@code node} FOR UPDATE, or intent {@code intentId}'s answer; must be the transaction's first load of both. */
    public static Uni<LockedNode> load(UUID node, String intentId) {
        return Panache.getSession().flatMap(session -> session.createSelectionQuery(UNANSWERED, NodeEntity.class)
                        .setParameter("node", node).setParameter("intent", intentId)
                        .setLockMode(LockModeType.PESSIMISTIC_WRITE).getSingleResultOrNull())
                .flatMap(locked -> locked != null ? Uni.createFrom().item(new LockedNode(locked, null)) : answerOnly(intentId));
    }

    /**
     * The same lock for a transaction on the plain client ({@link PipelinedTransactions}): node {@code node}'s row,
     * {@link NodeRow#SELECT_LIST} for {@link NodeRow#read}, FOR NO KEY UPDATE as Hibernate locks it, provided that
     * intent {@code intentId} has no answer; no row otherwise (answered, or no such node).
     */
    public static SqlStatement unanswered(UUID node, String intentId) {
        return new SqlStatement("SELECT " + NodeRow.SELECT_LIST + " FROM nodes WHERE uuid = ?1 AND NOT EXISTS"
                + " (SELECT 1 FROM processed_intents p WHERE p.intent_id = ?2) FOR NO KEY UPDATE", List.of(node, intentId));
    }

    /**
     * What a creation on the plain client needs to know, in one row: whether intent {@code intentId} was answered,
     * whether node {@code node}'s UUID, {@code name} and {@code serverHardwareUri} (null: none) are taken. Nothing
     * is locked: two creations of one UUID, name or server hardware race to the keys, and the loser's INSERT fails
     * (23505), to be attempted again and refused.
     */
    public static SqlStatement creation(UUID node, String name, String serverHardwareUri, String intentId) {
        return new SqlStatement("SELECT EXISTS (SELECT 1 FROM processed_intents WHERE intent_id = ?1),"
                + " EXISTS (SELECT 1 FROM nodes WHERE uuid = ?2), EXISTS (SELECT 1 FROM nodes WHERE name = ?3),"
                + " EXISTS (SELECT 1 FROM nodes WHERE driver_info ->> 'server_hardware_uri' = ?4)",
                Arrays.asList(intentId, node, name, serverHardwareUri));
    }

    /** No node to lock (a creation, or a node that does not exist): only intent {@code intentId}'s answer. */
    public static Uni<LockedNode> answerOnly(String intentId) {
        return ProcessedIntent.<ProcessedIntent>findById(intentId).map(answered -> new LockedNode(null, answered));
    }
}
