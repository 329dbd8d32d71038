-- Node history (Ironic API 1.78), projected from ironflow.node-events by NodeHistoryProjector: one row per
-- transition, with the intent and requester that caused it. No foreign key to nodes: history outlives the node.
-- seq orders a node's history and is the page marker's position; event_id makes a redelivered event a no-op.
CREATE TABLE node_history (
    seq         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    event_id    uuid        NOT NULL UNIQUE,
    node_uuid   uuid        NOT NULL,
    created_at  timestamptz NOT NULL,
    severity    text        NOT NULL,
    event_type  text        NOT NULL,
    event       text        NOT NULL,
    conductor   text,
    requester   text,
    intent_id   text,
    from_state  text,
    to_state    text,
    transition  text        NOT NULL
);

CREATE INDEX node_history_node ON node_history (node_uuid, seq);

DO $$
BEGIN
    IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'ironflow_api') THEN
        GRANT SELECT ON node_history TO ironflow_api;
    END IF;
END
$$;
