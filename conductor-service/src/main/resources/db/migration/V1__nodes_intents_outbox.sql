-- The node table: the conductor is its only writer; the API reads it with the ironflow_api role.
CREATE TABLE nodes (
    uuid                   uuid PRIMARY KEY,
    name                   text UNIQUE,
    driver                 text NOT NULL,
    driver_info            jsonb NOT NULL DEFAULT '{}',
    properties             jsonb NOT NULL DEFAULT '{}',
    extra                  jsonb NOT NULL DEFAULT '{}',
    instance_info          jsonb NOT NULL DEFAULT '{}',
    instance_uuid          uuid,
    resource_class         text,
    owner                  text,
    lessee                 text,
    description            text,
    automated_clean        boolean,
    conductor_group        text NOT NULL DEFAULT '',
    provision_state        text NOT NULL,
    target_provision_state text,
    power_state            text,
    target_power_state     text,
    maintenance            boolean NOT NULL DEFAULT false,
    maintenance_reason     text,
    retired                boolean NOT NULL DEFAULT false,
    retired_reason         text,
    last_error             text,
    reservation            text,
    conductor              text,
    clean_step             jsonb,
    revision               bigint NOT NULL,
    created_at             timestamptz NOT NULL,
    updated_at             timestamptz,
    provision_updated_at   timestamptz
);

-- Every intent the conductor has answered: a redelivered intent gets the same answer and is not applied again.
CREATE TABLE processed_intents (
    intent_id     text PRIMARY KEY,
    node_uuid     uuid NOT NULL,
    accepted      boolean NOT NULL,
    code          integer NOT NULL,
    error_message text,
    processed_at  timestamptz NOT NULL
);

-- Transactional outbox (Debezium's column names): rows are written with the change they announce and
-- published in seq order by the relay, keyed by aggregateid.
CREATE TABLE outbox (
    seq           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    id            uuid NOT NULL,
    aggregatetype text NOT NULL,
    aggregateid   text NOT NULL,
    type          text NOT NULL,
    payload       bytea,
    created_at    timestamptz NOT NULL
);

-- The API's read-only role, where the deployment created it.
DO $$
BEGIN
    IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'ironflow_api') THEN
        GRANT SELECT ON nodes TO ironflow_api;
    END IF;
END
$$;
