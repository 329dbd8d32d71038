package io.ironflow.conductor.intents;

import io.ironflow.conductor.domain.Rejection;
import io.ironflow.conductor.persistence.NodeEntity;
import io.ironflow.events.NodeIntent;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.Instance;
import java.util.HashMap;
import java.util.Map;

/**
 * The intent commands this conductor applies: every {@link CommandHandler} bean, keyed by the command class it
 * handles. An intent goes to its command's handler, inside the intent's transaction; a command no handler takes is
 * refused 501 and changes nothing. Two handlers for one command class are a bug, refused at start-up.
 */
@ApplicationScoped
public class NodeCommands {

    private final Map<Class<?>, CommandHandler<?>> handlers;

    NodeCommands(@Any Instance<CommandHandler<?>> discovered) {
        Map<Class<?>, CommandHandler<?>> byCommand = new HashMap<>();
        for (CommandHandler<?> handler : discovered) {
            CommandHandler<?> other = byCommand.put(handler.command(), handler);
            if (other != null) {
                throw new IllegalStateException("two handlers for " + handler.command().getSimpleName() + ": "
                        + handler.getClass().getName() + " and " + other.getClass().getName());
            }
        }
        this.handlers = Map.copyOf(byCommand);
    }

    /** Applies {@code intent} to {@code lockedNode}, as its access check loaded it (see {@link CommandHandler#apply}). */
    Uni<Outcome> apply(NodeIntent intent, NodeEntity lockedNode) {
        Object command = intent.getCommand();
        CommandHandler<?> handler = handlers.get(command.getClass());
        if (handler == null) {
            throw new Rejection(501, "Command " + command.getClass().getSimpleName() + " is not supported.");
        }
        return apply(handler, intent, command, lockedNode);
    }

    /** Whether {@code intent}'s command changes only its node's row (see {@link CommandHandler#writesOnlyItsNode}). */
    boolean writesOnlyItsNode(NodeIntent intent) {
        CommandHandler<?> handler = handlers.get(intent.getCommand().getClass());
        return handler != null && handler.writesOnlyItsNode();
    }

    private static <T> Uni<Outcome> apply(CommandHandler<T> handler, NodeIntent intent, Object command, NodeEntity lockedNode) {
        return handler.apply(intent, handler.command().cast(command), lockedNode);
    }
}
