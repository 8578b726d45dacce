-- Jobs due later added together as graphile-worker's add_jobs adds them ('replace' mode for their
-- keys), without its NOTIFY: the senders' grouped e-mails, due a window after their first step,
-- added by every payment recorded and every payout sent. Each NOTIFY woke a worker of every process
-- to ask the queue for a job and find none due; the workers find these by polling once they are.
-- The jobs as JSON (graphile-worker's job_spec fields): this runs before graphile-worker's own
-- migrations on a new database, when its types do not exist yet. Queues and flags are not used.
-- tests/api/jobs-queue-table.test.ts checks it writes the rows add_jobs writes, against the
-- installed graphile-worker. It answers the keys it added or replaced (a key whose job a worker is
-- taking at that moment is not among them: the caller adds it again, as for add_jobs).
CREATE FUNCTION "add_jobs_quietly"("specs" json) RETURNS SETOF text LANGUAGE plpgsql AS $$
DECLARE
  missing text;
BEGIN
  SELECT s.identifier INTO missing FROM json_to_recordset("specs") AS s(identifier text)
    WHERE NOT EXISTS (SELECT FROM "graphile_worker"."_private_tasks" AS tasks WHERE tasks."identifier" = s.identifier) LIMIT 1;
  IF FOUND THEN
    RAISE EXCEPTION 'add_jobs_quietly: no task %', missing;
  END IF;
  UPDATE "graphile_worker"."_private_jobs" AS jobs SET "key" = NULL, "attempts" = jobs."max_attempts", "updated_at" = now()
  FROM json_to_recordset("specs") AS spec(job_key text)
  WHERE spec.job_key IS NOT NULL AND jobs."key" = spec.job_key AND jobs."is_available" IS NOT TRUE;
  RETURN QUERY INSERT INTO "graphile_worker"."_private_jobs" AS jobs ("task_id", "payload", "run_at", "max_attempts", "key", "priority")
  SELECT tasks."id", coalesce(spec.payload, '{}'::json), coalesce(spec.run_at, now()), coalesce(spec.max_attempts, 25), spec.job_key, coalesce(spec.priority, 0)
  FROM json_to_recordset("specs") AS spec(identifier text, payload json, run_at timestamptz, max_attempts smallint, job_key text, priority smallint)
  INNER JOIN "graphile_worker"."_private_tasks" AS tasks ON tasks."identifier" = spec.identifier
  ON CONFLICT ("key") DO UPDATE SET
    "job_queue_id" = excluded."job_queue_id", "task_id" = excluded."task_id",
    "payload" = CASE WHEN json_typeof(jobs."payload") = 'array' AND json_typeof(excluded."payload") = 'array'
      THEN (jobs."payload"::jsonb || excluded."payload"::jsonb)::json ELSE excluded."payload" END,
    "max_attempts" = excluded."max_attempts", "run_at" = excluded."run_at", "priority" = excluded."priority",
    "revision" = jobs."revision" + 1, "flags" = excluded."flags", "attempts" = 0, "last_error" = NULL, "updated_at" = now()
  WHERE jobs."locked_at" IS NULL
  RETURNING jobs."key";
END $$;
