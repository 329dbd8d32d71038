package io.ironflow.conductor.intents;

import io.ironflow.conductor.persistence.NodeEntity;
import io.ironflow.events.NodeIntent;
import io.smallrye.mutiny.Uni;

/**
 * What one intent command does to a node, inside the intent's transaction. A handler is a bean; {@link NodeCommands}
 * finds it by {@link #command()}, so adding a command is adding a handler. Contract: every check runs before the
 * node is reserved or touched, so a refused command (a {@code Rejection}, thrown or failed) changes nothing; a node
 * someone else holds fails with {@link NodeBusy}, which the caller retries.
 *
 * @param <T> the command's class, as the intent schema names it
 */
interface CommandHandler<T> {

    /** The command class this handler applies; one handler per class. */
    Class<T> command();

    /**
     * Applies {@code command}, which {@code intent} carries, and answers the outcome. {@code lockedNode} is the
     * intent's node as this transaction loaded it FOR UPDATE ({@link io.ironflow.conductor.persistence.LockedNode})
     * and the access check passed it: the handler works on that instance and loads the node no second time (null
     * for CreateNode, and for a node that does not exist).
     */
    Uni<Outcome> apply(NodeIntent intent, T command, NodeEntity lockedNode);

    /**
     * True for a command that changes nothing but its node's row and the outbox (what it appends is held for the
     * answer's statement): it never uses a Hibernate session, so {@link IntentProcessor} may apply it on the plain
     * client with a node no session manages, in a transaction of two round trips. A handler that loads, persists
     * or queries anything must answer false (the default), or what it writes would miss the intent's transaction.
     */
    default boolean writesOnlyItsNode() {
        return false;
    }
}
