-- preserve-local-storage replaces a node's properties.skip_block_devices for the while of its destroy; the
-- operator's own list (null: none) is kept here, by the first run of the step, so that a run after a restart
-- restores it too, and not the list the destroy set.
CREATE TABLE preserved_skip_lists (
    action_id text NOT NULL,
    node      text NOT NULL,
    original  text,                              -- JSON text of the operator's list, null when there was none
    PRIMARY KEY (action_id, node)
);
