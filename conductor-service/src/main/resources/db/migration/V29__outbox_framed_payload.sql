-- The outbox keeps each record as it goes on the topic (framed by the registry's serializer), so the relay no
-- longer decodes node events to count their transitions: they are kept here, 'from|event|to', for node events only.
-- Rows written before this version (Avro single-object encoding, no transition) are still published: the relay
-- tells the two encodings apart by their first bytes.
ALTER TABLE outbox ADD COLUMN transition text;
