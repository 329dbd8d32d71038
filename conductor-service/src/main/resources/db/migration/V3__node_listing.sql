-- GET /v1/nodes as Ironic serves it: in creation order by default (Ironic's sort_key "id"), by keyset, with
-- the filters operators use most backed by (filter, id) indexes so a page costs the same at any fleet size.
ALTER TABLE nodes ADD COLUMN id bigint GENERATED ALWAYS AS IDENTITY;
ALTER TABLE nodes ADD CONSTRAINT nodes_id_key UNIQUE (id);
-- Ironic's node fault (set with maintenance by a failing periodic check); filterable with ?fault=.
ALTER TABLE nodes ADD COLUMN fault text;
CREATE INDEX nodes_retired_id ON nodes (retired, id);
CREATE INDEX nodes_provision_state_id ON nodes (provision_state, id);
CREATE INDEX nodes_maintenance_id ON nodes (maintenance, id);
