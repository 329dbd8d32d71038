-- The teardown-orchestrator's own tables, in a schema of their own (the conductor owns public), with their
-- own Flyway history (teardown.flyway_schema_history).

-- Shipyard's actions: one row each; lifecycle Pending | Processing | Complete | Failed | Paused.
CREATE TABLE actions (
    id             text PRIMARY KEY,               -- a ULID
    name           text NOT NULL,
    parameters     text NOT NULL,                  -- JSON object text, as posted
    requested_by   text NOT NULL,
    context_marker text,
    created_at     timestamptz NOT NULL,
    lifecycle      text NOT NULL,
    pause_requested boolean NOT NULL DEFAULT false,
    stop_requested boolean NOT NULL DEFAULT false,
    updated_at     timestamptz NOT NULL
);
CREATE INDEX actions_unfinished ON actions (created_at) WHERE lifecycle IN ('Pending', 'Processing');

-- The steps of an action, in order; a restarted orchestrator goes on from the first one not succeeded.
CREATE TABLE action_steps (
    action_id   text NOT NULL REFERENCES actions (id),
    seq         integer NOT NULL,
    node        text,                              -- null for an action-wide step (preflight, validate)
    step        text NOT NULL,
    status      text NOT NULL,                     -- pending | running | succeeded | failed | skipped
    started_at  timestamptz,
    finished_at timestamptz,
    message     text,
    result      text,                              -- the step's Airship status, JSON text
    PRIMARY KEY (action_id, seq)
);

-- One running action per node: the row is taken with the action and released when it ends.
CREATE TABLE node_claims (
    node      text PRIMARY KEY,
    action_id text NOT NULL REFERENCES actions (id)
);

-- Site-design revisions (the part of Deckhand the spec needs): the buffer, then numbered committed snapshots.
CREATE TABLE configdocs_buffer (
    collection text PRIMARY KEY,
    documents  text NOT NULL                       -- the YAML as posted
);

CREATE TABLE revisions (
    id         integer PRIMARY KEY,                -- 1, 2, ...
    created_at timestamptz NOT NULL,
    documents  text NOT NULL                       -- JSON object text: collection -> YAML text, every collection
);

CREATE TABLE revision_tags (
    revision_id integer NOT NULL REFERENCES revisions (id),
    tag         text NOT NULL,                     -- site-action-success | site-action-failure
    data        text NOT NULL,                     -- action_id:<ULID>
    created_at  timestamptz NOT NULL
);
CREATE INDEX revision_tags_by_revision ON revision_tags (revision_id);
