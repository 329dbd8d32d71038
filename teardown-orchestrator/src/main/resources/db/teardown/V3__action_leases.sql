-- Which instance runs an action: a lease, taken when there is none or it has expired (its holder died or lost
-- the database), renewed by its holder's heartbeat, deleted when the run ends. Times are the database's, so the
-- instances' clocks need not agree. A lease holds no connection and no lock between statements.
CREATE TABLE action_leases (
    action_id  text PRIMARY KEY,
    owner      text NOT NULL,                    -- the instance (ironflow.teardown.instance-id)
    expires_at timestamptz NOT NULL
);
