-- The API reads a write's recorded answer when the conductor's answer did not reach it in time (a conductor just
-- restarted, its relay slow to publish): the processed intent is the truth, so a 503 only means "not applied".
DO $$
BEGIN
    IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'ironflow_api') THEN
        GRANT SELECT ON processed_intents TO ironflow_api;
    END IF;
END
$$;
