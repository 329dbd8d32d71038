-- A record the broker can never take (larger than a Kafka record may be, or for a topic this conductor does not
-- publish) is moved here from the outbox with the reason, so that the relay goes on with every record after it
-- instead of retrying the same batch for ever. Kept whole, for an operator to look at or publish by hand.
CREATE TABLE outbox_dead_letters (
    seq         bigint PRIMARY KEY,
    id          uuid NOT NULL,
    aggregateid text NOT NULL,
    type        text NOT NULL,
    payload     bytea,
    created_at  timestamptz NOT NULL,
    reason      text NOT NULL,
    dead_at     timestamptz NOT NULL DEFAULT now()
);
