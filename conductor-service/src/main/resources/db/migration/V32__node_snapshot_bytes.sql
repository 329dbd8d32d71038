-- The size of the node's last published snapshot (its framed node-state record), written with every change of the
-- node: a change to a node over its size limit is refused only when it would make the node larger still, so an
-- operator can bring back under the limit, a step at a time, a node Ironflow's own services filled past it.
-- NULL for a node not changed since: its size is not known, and the limit applies as it stands.
ALTER TABLE nodes ADD COLUMN snapshot_bytes integer;
