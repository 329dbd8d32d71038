-- A direct node step (POST /api/v1.0/nodes/{node}/drain, decommission...) claims its node too, for as long as it
-- runs: an action created meanwhile, or a second direct step, would race it (drain, unlabel, delete the Node under
-- it). A direct claim names no action but its step, and is a lease: `claim` identifies it, and its holder's
-- heartbeat renews expires_at, so a claim whose process died lapses within lease-ttl and the node is free again.
ALTER TABLE node_claims
    ALTER COLUMN action_id DROP NOT NULL,
    ADD COLUMN step text,
    ADD COLUMN claim text UNIQUE,
    ADD COLUMN expires_at timestamptz,
    ADD CONSTRAINT node_claims_action_or_direct_step CHECK (
        (action_id IS NOT NULL AND step IS NULL AND claim IS NULL AND expires_at IS NULL)
        OR (action_id IS NULL AND step IS NOT NULL AND claim IS NOT NULL AND expires_at IS NOT NULL));
