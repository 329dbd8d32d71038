-- Work the conductor does on a node outside any intent: the step plan and where it stands (Ironic's
-- driver_internal_info), so any conductor can continue or fail it after a crash.
ALTER TABLE nodes ADD COLUMN driver_internal_info jsonb NOT NULL DEFAULT '{}';

-- Live conductors: each heartbeats here; one silent for the heartbeat timeout is dead and its nodes are taken over.
CREATE TABLE conductors (
    hostname     text PRIMARY KEY,
    started_at   timestamptz NOT NULL,
    heartbeat_at timestamptz NOT NULL
);

-- The periodic scans: reserved nodes (takeover) and nodes parked in a wait state (call-backs, timeouts).
CREATE INDEX nodes_reservation ON nodes (reservation) WHERE reservation IS NOT NULL;
CREATE INDEX nodes_waiting ON nodes (provision_state, provision_updated_at)
    WHERE provision_state IN ('clean wait', 'wait call-back', 'inspect wait', 'rescue wait');

DO $$
BEGIN
    IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'ironflow_api') THEN
        GRANT SELECT ON conductors TO ironflow_api;
    END IF;
END
$$;
