package io.ironflow.conductor.messaging;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.propagation.TextMapGetter;
import java.util.List;

/**
 * A trace crossing the outbox: the span that commits a row is written beside it as a W3C {@code traceparent},
 * and the relay publishes the row as that span's child. Contract: null in, null out; never fails on a malformed
 * value (the record is then published in a trace of its own).
 */
public final class Traces {

    private static final TextMapGetter<String> TRACEPARENT = new TextMapGetter<>() {
        @Override
        public Iterable<String> keys(String carrier) {
            return List.of("traceparent");
        }

        @Override
        public String get(String carrier, String key) {
            return "traceparent".equals(key) ? carrier : null;
        }
    };

    private Traces() {
    }

    /** The current span as a traceparent, or null when no span is recording. */
    public static String currentTraceparent() {
        SpanContext span = Span.current().getSpanContext();
        if (!span.isValid()) {
            return null;
        }
        return "00-" + span.getTraceId() + "-" + span.getSpanId() + "-" + span.getTraceFlags().asHex();
    }

    /** The context a row's traceparent names, or null for none. */
    static Context parentOf(String traceparent) {
        if (traceparent == null) {
            return null;
        }
        Context parent = W3CTraceContextPropagator.getInstance().extract(Context.root(), traceparent, TRACEPARENT);
        return Span.fromContext(parent).getSpanContext().isValid() ? parent : null;
    }
}
