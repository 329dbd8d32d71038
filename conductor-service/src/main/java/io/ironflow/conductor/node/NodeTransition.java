package io.ironflow.conductor.node;

import java.time.Instant;

/**
 * One thing that happened to a node, as its aggregate recorded it: a state machine edge fired, a fact noticed
 * that moves no state ({@code from == to}), its enrollment ({@code from == null}) or its deletion
 * ({@code to == null}). The caller turns each into a node event; this record knows nothing of Kafka.
 *
 * @param from   wire name of the provision state before, null for the enrollment
 * @param event  the state machine event's wire name, or what was noticed ("create", "destroy", "power sync")
 * @param to     wire name of the provision state after, null for the deletion
 * @param at     when, to the millisecond
 * @param detail what happened, for an event that moves no state; null otherwise
 */
public record NodeTransition(String from, String event, String to, Instant at, String detail) {
}
