-- Ports (Ironic's ports): a node's network ports, by MAC address (unique). The conductor writes them with the
-- node's intents; deleting a node deletes its ports. The node's own row keeps a copy of them (nodes.ports, keyed by
-- port uuid) so that every snapshot of the node carries its ports without another read.
CREATE TABLE ports (
    id                    bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
    uuid                  uuid PRIMARY KEY,
    address               text        NOT NULL UNIQUE,
    node_uuid             uuid        NOT NULL REFERENCES nodes (uuid) ON DELETE CASCADE,
    pxe_enabled           boolean     NOT NULL DEFAULT true,
    physical_network      text,
    local_link_connection jsonb       NOT NULL DEFAULT '{}',
    extra                 jsonb       NOT NULL DEFAULT '{}',
    internal_info         jsonb       NOT NULL DEFAULT '{}',
    created_at            timestamptz NOT NULL,
    updated_at            timestamptz
);

CREATE INDEX ports_node ON ports (node_uuid, id);

ALTER TABLE nodes ADD COLUMN ports jsonb NOT NULL DEFAULT '{}';

DO $$
BEGIN
    IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'ironflow_api') THEN
        GRANT SELECT ON ports TO ironflow_api;
    END IF;
END
$$;
