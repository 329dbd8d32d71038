-- A step event the broker can never take (larger than a record may be) is moved here with the reason, so that
-- it does not fail its batch, and every batch after it, for ever.
CREATE TABLE outbox_dead_letters (
    LIKE outbox,
    reason  text NOT NULL,
    dead_at timestamptz NOT NULL DEFAULT now()
);
