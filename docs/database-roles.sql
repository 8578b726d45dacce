-- A least-privilege role for the running app (README, "Database roles").
--
-- Run once as the schema owner (the role migrations run as: MIGRATION_DATABASE_URL, or whoever ran
-- `npm run db:migrate`), connected to the app's database, after the first migration. Replace the
-- password. Then give the app DATABASE_URL=postgres://mt_app:…@host/db and keep the owner's URL
-- for migrations only (MIGRATION_DATABASE_URL).
--
-- The app role reads and writes rows and nothing else: it cannot create, alter or drop tables,
-- create roles or databases, and cannot rewrite history (status history and audit log take
-- inserts only).

CREATE ROLE mt_app LOGIN PASSWORD 'change-me' NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION;

GRANT USAGE ON SCHEMA public TO mt_app;
GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO mt_app;
GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO mt_app;
-- Tables and sequences later migrations create get the same rights.
ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO mt_app;
ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT USAGE, SELECT ON SEQUENCES TO mt_app;

-- The job queue (graphile-worker's schema): the app adds, takes and finishes jobs.
GRANT USAGE ON SCHEMA graphile_worker TO mt_app;
GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA graphile_worker TO mt_app;
GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA graphile_worker TO mt_app;
-- graphile-worker keeps row-level security on its tables with no policy (only the owner passes):
-- the app role gets one policy per table that lets it through.
DO $$
DECLARE t record;
BEGIN
  FOR t IN SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
           WHERE n.nspname = 'graphile_worker' AND c.relkind = 'r' AND c.relrowsecurity LOOP
    EXECUTE format('CREATE POLICY mt_app_all ON graphile_worker.%I TO mt_app USING (true) WITH CHECK (true)', t.relname);
  END LOOP;
END $$;

-- Append-only records.
-- A transfer's thread (notes and the sender's messages) is kept as written.
REVOKE UPDATE, DELETE ON transfer_status_history, transfer_notes, audit_log, ledger_entries, ledger_lines FROM mt_app;

-- Nobody but the owner creates objects in the schema (PostgreSQL before 15 let everyone).
REVOKE CREATE ON SCHEMA public FROM PUBLIC;
