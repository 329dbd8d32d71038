-- The trace an outbox row belongs to (W3C traceparent of the span that committed it), so the relay publishes
-- the record inside the same trace as the request that caused it. Null when tracing is off.
ALTER TABLE outbox ADD COLUMN traceparent text;
