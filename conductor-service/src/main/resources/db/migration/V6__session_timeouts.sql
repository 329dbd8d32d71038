-- The database's backstop against a lost continuation in the conductor (a transaction it opened and never
-- finished holds its row locks and a connection for ever): PostgreSQL ends such a session itself. Set on the
-- conductor's role, so every new session of it takes them; each is well above what healthy work takes
-- (an intent's deadline is 10 s, a statement takes milliseconds), so only a wedged session ever meets one.
--   idle_in_transaction_session_timeout: a transaction left idle (its client stopped talking) is ended.
--   statement_timeout: no statement runs for ever (the bench-list seeding, the largest, takes seconds).
--   lock_timeout: a row lock held by a wedged or abandoned transaction fails the waiter, which retries.
DO $$
BEGIN
    EXECUTE format('ALTER ROLE %I SET idle_in_transaction_session_timeout = %L', current_user, '30s');
    EXECUTE format('ALTER ROLE %I SET statement_timeout = %L', current_user, '60s');
    EXECUTE format('ALTER ROLE %I SET lock_timeout = %L', current_user, '5s');
END
$$;
