package io.ironflow.conductor.intents;

import io.ironflow.conductor.persistence.Failures;
import io.ironflow.conductor.domain.NewNode;
import io.ironflow.conductor.domain.NodeNames;
import io.ironflow.conductor.domain.Rejection;
import io.ironflow.conductor.messaging.NodeSnapshots;
import io.ironflow.conductor.messaging.Outbox;
import io.ironflow.conductor.metrics.ConductorMetrics;
import io.ironflow.conductor.persistence.FreshContext;
import io.ironflow.conductor.persistence.LockedNode;
import io.ironflow.conductor.persistence.NodeEntity;
import io.ironflow.conductor.persistence.NodeRow;
import io.ironflow.conductor.persistence.PipelinedTransactions;
import io.ironflow.conductor.persistence.SqlStatement;
import io.ironflow.conductor.persistence.ProcessedIntent;
import io.ironflow.conductor.work.NodeWork;
import io.ironflow.conductor.work.ConductorIdentity;
import io.ironflow.events.CreateNode;
import io.ironflow.events.IntentResult;
import io.ironflow.events.NodeIntent;
import io.ironflow.events.ValidateNode;
import io.ironflow.schemas.SecretFields;
import io.ironflow.schemas.Topic;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;
import io.vertx.mutiny.sqlclient.Row;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import java.util.function.Function;
import java.util.function.Supplier;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;
import org.jboss.logging.MDC;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;

/**
 * Applies one intent in one transaction: the change, the processed-intent record, and the outbox rows that
 * announce them (the intent result, the node-state snapshot, the node-events) commit together or not at all. The
 * record, the rows and the changed node's row are one statement: the command's rows are held back until the answer
 * is known, and the node is written by that statement instead of Hibernate's flush ({@link NodeRow}).
 * An intent seen before is answered again, not applied again. A node reserved by running work is retried a few
 * times (Ironic: 3 x 1 s) before the intent is answered NodeLocked.
 * <p>
 * An intent whose sender has stopped waiting for it ({@code notAfter} passed: the API has answered 503) is not
 * started, neither first nor on a retry: it is answered 503, expired, and changes nothing.
 * <p>
 * Every intent ends, whatever happens: each attempt has a deadline and runs on a fresh context (so a new
 * session, and an abandoned attempt's transaction is never reused); a failure that may pass (the database
 * away, a lock or deadline that ran out) is attempted again, backing off, until {@code intent-retry-for} has
 * passed (a database restart is ridden out, not dead-lettered); what still fails, and
 * any failure that would fail the same way again (a bug, data that passed the checks), is answered
 * {@code accepted=false} with 503 or 500 in a transaction of its own, leaving the node as it was. Only when
 * even that answer cannot be written does {@link #process} fail, and the caller dead-letters the record.
 * The transaction's first statement locks the intent's node unless the intent was answered before
 * ({@link LockedNode}). Before anything is applied, {@link IntentAuthorization} checks the intent's principal
 * against the policy, on that locked node; a refusal is answered like any other rejection, 403 or 404, and
 * changes nothing.
 * An abandoned attempt that commits after all is harmless: the processed-intent key admits one answer per
 * intent, so whichever commits second rolls back.
 * <p>
 * Two ways to run the transaction, the same statements and lock either way: a creation, and a command that changes
 * only its node ({@link CommandHandler#writesOnlyItsNode}), run on the plain client in two round trips
 * ({@link PipelinedTransactions}: BEGIN with the first statement, the answer with COMMIT), on a node no session
 * manages ({@link NodeRow#read}); every other command, and whatever those find answered before or missing, runs
 * in a Hibernate session. On the plain client, intents of other nodes that arrive together share one transaction
 * (group commit, keyed by the node's UUID so that a node's intents never share one): each is still applied and
 * answered whole or not at all. The first statement only reads and locks, so an intent that fails, or finds its
 * row missing, is left out of the shared commit and goes its own way; only a failed statement rolls the shared
 * transaction back, and every intent in it is then attempted again alone.
 */
@ApplicationScoped
public class IntentProcessor {

    private static final Logger LOG = Logger.getLogger(IntentProcessor.class);
    /** The processed-intent record, written in the statement of the intent's outbox rows. */
    private static final String PROCESSED = "answered AS (INSERT INTO processed_intents"
            + " (intent_id, node_uuid, accepted, code, error_message, processed_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6))";
    private final ConductorMetrics metrics;
    private final Tracer tracer;

    private final ConductorIdentity conductor;
    private final NodeCommands commands;
    private final NodeWork work;
    private final NodeValidation validation;
    private final IntentAuthorization authorization;
    private final PipelinedTransactions transactions;
    private final CreateNodeHandler creations;
    private final Vertx vertx;
    private final int lockRetries;
    private final Duration lockRetryInterval;
    private final Duration deadline;
    private final Duration retryFor;

    IntentProcessor(ConductorIdentity conductor, NodeCommands commands, NodeWork work, NodeValidation validation,
            Vertx vertx,
            @ConfigProperty(name = "ironflow.conductor.node-locked-retry-attempts") int lockRetries,
            @ConfigProperty(name = "ironflow.conductor.node-locked-retry-interval") Duration lockRetryInterval,
            @ConfigProperty(name = "ironflow.conductor.intent-deadline") Duration deadline,
            @ConfigProperty(name = "ironflow.conductor.intent-retry-for") Duration retryFor,
            ConductorMetrics metrics, Tracer tracer, IntentAuthorization authorization, PipelinedTransactions transactions,
            CreateNodeHandler creations) {
        this.authorization = authorization;
        this.transactions = transactions;
        this.creations = creations;
        this.conductor = conductor;
        this.commands = commands;
        this.work = work;
        this.validation = validation;
        this.vertx = vertx;
        this.lockRetries = lockRetries;
        this.lockRetryInterval = lockRetryInterval;
        this.deadline = deadline;
        this.retryFor = retryFor;
        this.metrics = metrics;
        this.tracer = tracer;
    }

    /**
     * Applies or answers {@code intent}; fails only when not even a failure answer could be written. Its work is one
     * span, a child of {@code parent} (the Kafka record's), current in every attempt, so the outbox rows it commits
     * and the records the relay publishes from them belong to the same trace.
     */
    public Uni<Void> process(NodeIntent intent, Context parent) {
        String command = intent.getCommand().getClass().getSimpleName();
        metrics.intentReceived(command);
        long started = System.nanoTime();
        Span span = tracer.spanBuilder("apply " + command).setParent(parent)
                .setAttribute("ironflow.node.uuid", intent.getNodeUuid())
                .setAttribute("ironflow.intent.id", intent.getIntentId()).startSpan();
        if (intent.getCommand() instanceof ValidateNode) {
            // a pure read: no processed-intent record
            return bounded(intent, span, () -> validation.answer(intent)).onTermination().invoke(span::end);
        }
        return bounded(intent, span, () -> attempt(intent, 1))
                .onFailure(Failures::isTransient).retry().withBackOff(Duration.ofMillis(200), Duration.ofSeconds(5))
                .expireIn(retryFor.toMillis())
                .onFailure().recoverWithUni(failure -> bounded(intent, span, () -> answerFailed(intent, failure)))
                .invoke(outcome -> {
                    String result = outcome == null ? "repeated" : outcome.accepted() ? "applied" : "refused";
                    metrics.intentAnswered(command, result, outcome == null ? 0 : outcome.code(),
                            Duration.ofNanos(System.nanoTime() - started));
                    span.setAttribute("ironflow.intent.result", result);
                    if (outcome != null) {
                        span.setAttribute("ironflow.intent.code", outcome.code());
                    }
                    if (outcome != null && outcome.callBackAt() != null) {
                        work.scheduleCallBack(outcome.node().uuid, outcome.callBackAt());
                    }
                })
                .onFailure().invoke(failure -> span.setStatus(StatusCode.ERROR, failure.toString()))
                .onTermination().invoke(span::end)
                .replaceWithVoid();
    }

    /**
     * One attempt on a fresh context (its own session), failed with IntentDeadlineExceeded past the deadline. The
     * intent's span is current on that context, and its node and intent are in the MDC of every log line.
     */
    private <T> Uni<T> bounded(NodeIntent intent, Span span, Supplier<Uni<T>> attempt) {
        return Uni.createFrom().completionStage(() -> FreshContext.run(vertx, () -> {
                    MDC.put("node", intent.getNodeUuid());
                    MDC.put("intent", intent.getIntentId());
                    span.makeCurrent(); // on this attempt's own context, thrown away with it: no scope to close
                    return attempt.get();
                }))
                .ifNoItem().after(deadline).failWith(() -> new IntentDeadlineExceeded(intent.getIntentId(), deadline));
    }

    /**
     * Answers an intent that could not be applied: 503 when the failure may pass (the client may try again),
     * 500 for one that would fail the same way again. Nothing of the failed attempt is kept.
     */
    private Uni<Outcome> answerFailed(NodeIntent intent, Throwable failure) {
        boolean mayPass = Failures.isTransient(failure);
        LOG.errorf(mayPass ? null : failure, "intent %s (%s) for node %s failed%s; answering %d: %s", intent.getIntentId(),
                intent.getCommand().getClass().getSimpleName(), intent.getNodeUuid(),
                mayPass ? " for " + retryFor.toSeconds() + " s" : "", mayPass ? 503 : 500, Failures.describe(failure));
        Rejection answer = mayPass
                ? new Rejection(503, "The conductor could not apply the request to node " + intent.getNodeUuid()
                        + " within " + retryFor.toSeconds() + " s (its database or the node was not available);"
                        + " nothing was changed, try again.")
                : new Rejection(500, "The conductor failed to apply the request to node " + intent.getNodeUuid()
                        + " and changed nothing; the conductor's log has the details of intent " + intent.getIntentId() + ".");
        return answerUnapplied(intent, () -> answer);
    }

    /**
     * Answers {@code answer} without applying the intent, in a transaction of its own; an intent answered before is
     * answered again as it was (and {@code answer} is not asked for).
     */
    private Uni<Outcome> answerUnapplied(NodeIntent intent, Supplier<Rejection> answer) {
        return inTransaction(() -> LockedNode.answerOnly(intent.getIntentId())
                .flatMap(previous -> previous.answered() != null ? answerAgain(intent, previous.answered())
                        : rejected(intent, answer.get()).flatMap(outcome -> record(intent, outcome))));
    }

    /**
     * Past its sender's {@code notAfter} an intent is not started, by a first attempt or a retry: the API has told
     * its client 503 by then, and the client may have sent it again. It is answered 503 and changes nothing.
     */
    private Uni<Outcome> answerExpired(NodeIntent intent) {
        return answerUnapplied(intent, () -> expiry(intent)); // logged only when it is the answer
    }

    /**
     * The refusal of an expired intent, logged: ask for it only where it is the answer. Checked when an attempt starts and again once it holds its node's row (or
     * knows its creation is new): a wait for the lock must not carry an attempt past notAfter into a commit the API
     * no longer expects.
     */
    private static Rejection expiry(NodeIntent intent) {
        LOG.infof("intent %s (%s) for node %s expired at %s before it was applied; answering 503", intent.getIntentId(),
                intent.getCommand().getClass().getSimpleName(), intent.getNodeUuid(), intent.getNotAfter());
        return new Rejection(503, "Request " + intent.getIntentId() + " for node " + intent.getNodeUuid() + " expired at "
                + intent.getNotAfter() + ", when its sender stopped waiting, before a conductor could apply it; nothing"
                + " was changed, try again.");
    }

    private static boolean expired(NodeIntent intent) {
        return intent.getNotAfter() != null && Instant.now().isAfter(intent.getNotAfter());
    }

    private Uni<Outcome> attempt(NodeIntent intent, int attempt) {
        if (expired(intent)) {
            return answerExpired(intent);
        }
        // deferred: whatever a path throws before its first Uni fails this attempt, as a failed Uni would
        Uni<Outcome> once = Uni.createFrom().deferred(() -> !NodeNames.isUuid(intent.getNodeUuid()) ? attemptInSession(intent)
                : intent.getCommand() instanceof CreateNode create ? attemptCreation(intent, create)
                : commands.writesOnlyItsNode(intent) ? attemptPipelined(intent) : attemptInSession(intent));
        return once
                .onFailure(NodeBusy.class).recoverWithUni(busy -> attempt < lockRetries
                        ? Uni.createFrom().voidItem().invoke(metrics::lockRetry).onItem().delayIt().by(lockRetryInterval).flatMap(x -> attempt(intent, attempt + 1))
                        : inTransaction(() -> rejected(intent, ((NodeBusy) busy).asRejection())
                                .flatMap(outcome -> record(intent, outcome))));
    }

    /**
     * The attempt in a Hibernate session: any command, an intent answered before, a node that is not there. A
     * refusal rolls back whatever the command wrote before it was refused (a port's row, say) and is answered in
     * a transaction of its own.
     */
    private Uni<Outcome> attemptInSession(NodeIntent intent) {
        return inTransaction(() -> lock(intent).flatMap(locked -> locked.answered() != null
                ? answerAgain(intent, locked.answered())
                : expired(intent) ? Uni.createFrom().failure(expiry(intent)) : apply(intent, locked.node())))
                .onFailure(Rejection.class).recoverWithUni(refusal -> inTransaction(() -> rejected(intent, (Rejection) refusal)
                        .flatMap(outcome -> record(intent, outcome))));
    }

    /**
     * The attempt of a command that changes only its node ({@link CommandHandler#writesOnlyItsNode}) on the plain
     * client ({@link #onPlainClient}): its first statement locks the node FOR UPDATE, and the command runs on that
     * node (no session manages it). An intent answered before, or a node that is not there, finds no row.
     */
    private Uni<Outcome> attemptPipelined(NodeIntent intent) {
        SqlStatement lock = LockedNode.unanswered(UUID.fromString(intent.getNodeUuid()), intent.getIntentId());
        return onPlainClient(intent, lock, row -> {
            if (row == null) {
                return null;
            }
            if (expired(intent)) { // the lock came after notAfter
                return Uni.createFrom().item(refused(expiry(intent)).withNode(NodeRow.read(row)));
            }
            NodeEntity lockedNode = NodeRow.read(row);
            return command(intent, lockedNode)
                    .map(result -> {
                        if (result.accepted() && result.node() != null && result.node() != lockedNode) {
                            throw new IllegalStateException(intent.getCommand().getClass().getSimpleName()
                                    + " writes only its node, but answered another instance of it");
                        }
                        return writingLockedNode(result, lockedNode);
                    })
                    // the answer carries the node as it was, not as the refused command may have left it
                    .onFailure(Rejection.class).recoverWithItem(failure -> refused((Rejection) failure).withNode(NodeRow.read(row)));
        });
    }

    /**
     * A creation on the plain client ({@link #onPlainClient}): its first statement asks what it needs to know
     * (answered before? its UUID or name taken?), and the answer's statement inserts the node's row
     * ({@link NodeRow#insertCte}). A creation answered before, one whose UUID is taken (its answer carries the node
     * there), and one refused before the database is asked are attempted in a session, which answers them as it
     * always has.
     */
    private Uni<Outcome> attemptCreation(NodeIntent intent, CreateNode command) {
        NewNode node;
        try {
            authorization.forCommand(intent, null);
            node = creations.newNode(intent, command);
        } catch (Rejection refused) {
            return attemptInSession(intent);
        }
        return onPlainClient(intent, LockedNode.creation(node.uuid(), node.name(), CreateNodeHandler.serverHardware(node),
                intent.getIntentId()), known -> known.getBoolean(0) || known.getBoolean(1) ? null
                        : expired(intent) ? Uni.createFrom().item(refused(expiry(intent)))
                        : creations.enrol(intent, node, false, known.getBoolean(2), known.getBoolean(3))
                                .map(result -> result.changing(Outcome.RowChange.INSERT))
                                .onFailure(Rejection.class).recoverWithItem(failure -> refused((Rejection) failure)));
    }

    /**
     * An attempt on the plain client, in two round trips ({@link PipelinedTransactions}): BEGIN with {@code first};
     * {@code command} on the row first read (null: none), with what it appends to the outbox held; then the
     * answer's statement, which also changes the node's row as the outcome says ({@link #answerPrelude}), with
     * COMMIT. A command that answers null leaves the intent to a session (answered before, no such node, ...): this
     * transaction rolls back and the attempt is made there.
     */
    private Uni<Outcome> onPlainClient(NodeIntent intent, SqlStatement first, Function<Row, Uni<Outcome>> command) {
        return transactions.runReading(intent.getNodeUuid(), first, rows -> {
            Outbox.hold();
            Uni<Outcome> outcome = command.apply(rows.size() == 0 ? null : rows.iterator().next());
            if (outcome == null) {
                return Uni.createFrom().item(PipelinedTransactions.Ending.<Outcome>rollback(null));
            }
            return outcome.map(result -> {
                Instant now = now();
                SqlStatement answer = Outbox.heldStatement(answerPrelude(intent, result, now), answer(intent, result, now));
                return PipelinedTransactions.Ending.commit(answer, result);
            });
        }).flatMap(outcome -> outcome != null ? Uni.createFrom().item(outcome) : attemptInSession(intent));
    }

    /**
     * A transaction of this attempt that ends in its answer ({@link #record} or {@link #answerAgain}): what the
     * command appends to the outbox is held back and written with the answer, one statement.
     */
    private static Uni<Outcome> inTransaction(Supplier<Uni<Outcome>> work) {
        return Panache.withTransaction(() -> {
            Outbox.hold();
            return work.get();
        });
    }

    /**
     * The intent's node FOR UPDATE, or its earlier answer; a creation locks nothing (its node is not there yet), and
     * only its answer is looked up.
     */
    private static Uni<LockedNode> lock(NodeIntent intent) {
        return intent.getCommand() instanceof CreateNode || !NodeNames.isUuid(intent.getNodeUuid())
                ? LockedNode.answerOnly(intent.getIntentId())
                : LockedNode.load(UUID.fromString(intent.getNodeUuid()), intent.getIntentId());
    }

    private Uni<Outcome> apply(NodeIntent intent, NodeEntity lockedNode) {
        return command(intent, lockedNode)
                .map(result -> writingLockedNode(result, lockedNode))
                .flatMap(result -> result.rowChange() != Outcome.RowChange.NONE
                        ? recordWithNode(intent, result, lockedNode) : record(intent, result));
    }

    /**
     * The intent's command on {@code lockedNode} (null: a creation, or no such node), once its principal may apply
     * it: a refusal, thrown or failed, fails the Uni with the {@link Rejection}.
     */
    private Uni<Outcome> command(NodeIntent intent, NodeEntity lockedNode) {
        return Uni.createFrom().deferred(() -> commands.apply(intent, authorization.forCommand(intent, lockedNode)));
    }

    /** An accepted outcome that answers with the node this transaction locked writes that node's row with the answer. */
    private static Outcome writingLockedNode(Outcome result, NodeEntity lockedNode) {
        return result.accepted() && lockedNode != null && result.node() == lockedNode
                ? result.changing(Outcome.RowChange.UPDATE) : result;
    }

    /** A refused command changes nothing: what it appended to the outbox is dropped. */
    private static Outcome refused(Rejection rejection) {
        Outbox.dropHeld();
        return Outcome.rejected(rejection);
    }

    /** A refused intent changes nothing; its answer still carries the node as it is, when there is one. */
    private Uni<Outcome> rejected(NodeIntent intent, Rejection rejection) {
        Outcome outcome = refused(rejection);
        if (!NodeNames.isUuid(intent.getNodeUuid())) {
            return Uni.createFrom().item(outcome);
        }
        return Panache.getSession().invoke(session -> session.clear()) // drop whatever the refused command touched
                .flatMap(session -> NodeEntity.<NodeEntity>findById(UUID.fromString(intent.getNodeUuid())))
                .map(outcome::withNode);
    }

    /**
     * Records the answer: the processed intent, the node's row as the outcome changes it ({@link #answerPrelude}),
     * the rows the change held back and the intent's result, in one statement. A second answer to the same intent
     * fails on the processed intent's key (23505, so the attempt is retried, and answers again what the first one
     * recorded).
     */
    private Uni<Outcome> record(NodeIntent intent, Outcome outcome) {
        Instant now = now();
        return Outbox.appendHeld(answerPrelude(intent, outcome, now), answer(intent, outcome, now)).replaceWith(outcome);
    }

    /**
     * {@link #record}s an outcome that changes the row of {@code lockedNode}, the node this session locked: the
     * entity is detached first, so Hibernate does not flush it at commit. A node the session no longer holds
     * (cleared) is left to whoever let it go.
     */
    private Uni<Outcome> recordWithNode(NodeIntent intent, Outcome outcome, NodeEntity lockedNode) {
        return Panache.getSession().flatMap(session -> {
            if (lockedNode == null || !session.contains(lockedNode)) {
                return record(intent, outcome.changing(Outcome.RowChange.NONE));
            }
            session.detach(lockedNode);
            return record(intent, outcome);
        });
    }

    /**
     * What an answer's statement writes before its outbox rows: the processed intent, and the node's row as
     * {@link Outcome#rowChange} says: inserted or written ({@link NodeRow}, from the outcome's node), or deleted (its
     * ports and portgroups go with it, ON DELETE CASCADE).
     */
    private static Outbox.Prelude answerPrelude(NodeIntent intent, Outcome outcome, Instant now) {
        List<Object> parameters = new ArrayList<>(processed(intent, outcome, now));
        int next = parameters.size() + 1;
        String change = switch (outcome.rowChange()) {
            case NONE -> null;
            case INSERT -> NodeRow.insertCte("created", next);
            case UPDATE -> NodeRow.updateCte("written", next);
            case DELETE -> "deleted AS (DELETE FROM nodes WHERE uuid = ?" + next + ")";
        };
        if (change == null) {
            return new Outbox.Prelude(PROCESSED, parameters, ProcessedIntent.class);
        }
        parameters.addAll(outcome.rowChange() == Outcome.RowChange.DELETE
                ? List.of(UUID.fromString(intent.getNodeUuid())) : NodeRow.parameters(outcome.node()));
        return new Outbox.Prelude(PROCESSED + ", " + change, parameters, ProcessedIntent.class, NodeEntity.class);
    }

    /** The parameters of {@link #PROCESSED}. */
    private static List<Object> processed(NodeIntent intent, Outcome outcome, Instant now) {
        UUID node = NodeNames.isUuid(intent.getNodeUuid()) ? UUID.fromString(intent.getNodeUuid()) : null;
        return Arrays.asList(intent.getIntentId(), node, outcome.accepted(), outcome.code(), outcome.errorMessage(), now);
    }

    private Uni<Outcome> answerAgain(NodeIntent intent, ProcessedIntent previous) {
        Uni<NodeEntity> node = previous.nodeUuid == null ? Uni.createFrom().nullItem() : NodeEntity.findById(previous.nodeUuid);
        return node.flatMap(current -> {
            Outcome outcome = new Outcome(previous.accepted, previous.code, previous.errorMessage, current, null);
            return Outbox.appendHeld(null, answer(intent, outcome, now())).replaceWith((Outcome) null);
        });
    }

    private List<Outbox.Entry> answer(NodeIntent intent, Outcome outcome, Instant now) {
        return List.of(new Outbox.Entry(Topic.INTENT_RESULTS, intent.getNodeUuid(), result(intent, outcome, now)));
    }

    private IntentResult result(NodeIntent intent, Outcome outcome, Instant now) {
        return IntentResult.newBuilder()
                .setIntentId(intent.getIntentId())
                .setNodeUuid(intent.getNodeUuid())
                .setAccepted(outcome.accepted())
                .setCode(outcome.code())
                .setErrorMessage(SecretFields.text(outcome.errorMessage()))
                .setNode(outcome.node() == null ? null : authorization.readable(intent, outcome.accepted(), NodeSnapshots.of(outcome.node())))
                .setConductor(conductor.name())
                .setCompletedAt(now)
                .build();
    }

    private static Instant now() {
        return Instant.now().truncatedTo(ChronoUnit.MILLIS);
    }
}
