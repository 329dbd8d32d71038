-- The hardware types each conductor registered at start-up (Ironic's conductor_hardware_interfaces): per driver,
-- its interfaces ({"<type>": {"default": ..., "enabled": [...]}}), the driver_info properties it reads
-- ({"<key>": "<description>"}) and its clean-step catalogue (GET .../cleaning/steps items). A driver is offered
-- while a conductor that registered it heartbeats (conductors.heartbeat_at).
CREATE TABLE conductor_drivers (
    conductor     text        NOT NULL,
    driver        text        NOT NULL,
    interfaces    jsonb       NOT NULL,
    properties    jsonb       NOT NULL,
    clean_steps   jsonb       NOT NULL,
    registered_at timestamptz NOT NULL,
    PRIMARY KEY (conductor, driver)
);

CREATE INDEX conductor_drivers_driver ON conductor_drivers (driver);

DO $$
BEGIN
    IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'ironflow_api') THEN
        GRANT SELECT ON conductor_drivers TO ironflow_api;
    END IF;
END
$$;
