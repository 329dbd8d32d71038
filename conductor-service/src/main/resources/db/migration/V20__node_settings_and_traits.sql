-- Node fields of Ironic's API 1.37-1.82 that the conductor keeps: traits (1.37, sorted names),
-- network_data (1.66), boot_mode and secure_boot (1.75, as the management interface last set them), shard (1.82).
ALTER TABLE nodes
    ADD COLUMN traits       text[] NOT NULL DEFAULT '{}',
    ADD COLUMN network_data jsonb NOT NULL DEFAULT '{}',
    ADD COLUMN boot_mode    text,
    ADD COLUMN secure_boot  boolean,
    ADD COLUMN shard        text;

-- GET /v1/nodes?shard=... and GET /v1/shards.
CREATE INDEX nodes_shard ON nodes (shard);
