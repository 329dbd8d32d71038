-- The node table lives on SSD or in memory. PostgreSQL's default random_page_cost (4, for spinning disks) makes
-- the planner walk the id index and filter (GET /v1/nodes?retired=True reads ten rows per hit) instead of the
-- (retired, id) index; 1.1 is the usual figure for SSDs and picks the index. New sessions take it.
DO $$
BEGIN
    EXECUTE format('ALTER DATABASE %I SET random_page_cost = 1.1', current_database());
END
$$;
