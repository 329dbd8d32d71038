-- Step events are written here in the same transaction as the step change they announce, then relayed to
-- ironflow.teardown-events and deleted (at least once: a crash between publish and delete publishes again).
CREATE TABLE outbox (
    seq             bigserial PRIMARY KEY,       -- publication order
    event_key       text NOT NULL,               -- the Kafka key: node uuid, else node name
    action_id       text NOT NULL,
    node_uuid       text,
    node_name       text NOT NULL,
    step            text NOT NULL,
    status          text NOT NULL,
    message         text,
    target_revision bigint,
    occurred_at     timestamptz NOT NULL
);
