-- Portgroups (Ironic's portgroups, API 1.23): link aggregates of a node's ports. Name and MAC address are each unique
-- among all portgroups (both optional); a port may belong to one portgroup of its own node. The conductor refuses to
-- delete a portgroup that still has ports, as Ironic does; deleting a node deletes its portgroups (and ports). The
-- node's row keeps a copy (nodes.portgroups, keyed by uuid), so every snapshot carries them.
CREATE TABLE portgroups (
    id                         bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
    uuid                       uuid PRIMARY KEY,
    name                       text UNIQUE,
    address                    text UNIQUE,
    node_uuid                  uuid        NOT NULL REFERENCES nodes (uuid) ON DELETE CASCADE,
    mode                       text        NOT NULL,
    standalone_ports_supported boolean     NOT NULL DEFAULT true,
    properties                 jsonb       NOT NULL DEFAULT '{}',
    extra                      jsonb       NOT NULL DEFAULT '{}',
    internal_info              jsonb       NOT NULL DEFAULT '{}',
    created_at                 timestamptz NOT NULL,
    updated_at                 timestamptz
);

CREATE INDEX portgroups_node ON portgroups (node_uuid, id);

-- NO ACTION (checked at the end of the statement): a node's deletion removes its ports and portgroups together.
ALTER TABLE ports ADD COLUMN portgroup_uuid uuid REFERENCES portgroups (uuid);
CREATE INDEX ports_portgroup ON ports (portgroup_uuid);

ALTER TABLE nodes ADD COLUMN portgroups jsonb NOT NULL DEFAULT '{}';

DO $$
BEGIN
    IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'ironflow_api') THEN
        GRANT SELECT ON portgroups TO ironflow_api;
    END IF;
END
$$;
