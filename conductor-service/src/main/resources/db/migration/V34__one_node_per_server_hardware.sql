-- A piece of OneView server hardware belongs to one node at most (issue 58): two nodes on one server would let
-- whoever drives either act on the other's (the allocator uses the appliance administrator's session). The
-- conductor looks before it writes (409); this index settles two writers that both looked first.
DO $$
BEGIN
    IF EXISTS (SELECT 1 FROM nodes WHERE driver_info ->> 'server_hardware_uri' IS NOT NULL
               GROUP BY driver_info ->> 'server_hardware_uri' HAVING count(*) > 1) THEN
        RAISE EXCEPTION 'Several nodes name the same driver_info.server_hardware_uri; leave it on one node each before'
            ' upgrading: SELECT driver_info ->> ''server_hardware_uri'', array_agg(uuid) FROM nodes GROUP BY 1 HAVING count(*) > 1';
    END IF;
END $$;

CREATE UNIQUE INDEX nodes_server_hardware_uri_key ON nodes ((driver_info ->> 'server_hardware_uri'))
    WHERE driver_info ->> 'server_hardware_uri' IS NOT NULL;
