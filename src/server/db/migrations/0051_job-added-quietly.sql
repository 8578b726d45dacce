-- A job added as graphile-worker's add_job adds it in its 'replace' mode (the row, the key's
-- waiting job replaced, a running one's key cleared so this one waits its turn), without its
-- NOTIFY, whose commit-time lock queues every transaction that sends one behind the one
-- committing: at 100 payouts a second, each payout's e-mail, enquiry and balance reading waited
-- there. A job due later needs no NOTIFY (the workers find it by polling once it is due); for a
-- job due now the caller wakes the workers once it committed (jobs/waker.ts).
-- tests/api/jobs-queue-table.test.ts checks it writes the rows add_job writes, against the
-- installed graphile-worker. Run with the caller's rights, in the caller's transaction.
CREATE FUNCTION "add_job_quietly"("task" text, "job_payload" json, "job_max_attempts" smallint, "job_key" text, "due_at" timestamptz)
RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF "job_key" IS NOT NULL THEN
    UPDATE "graphile_worker"."_private_jobs" AS jobs SET "key" = NULL, "attempts" = jobs."max_attempts", "updated_at" = now()
    WHERE jobs."key" = "job_key" AND jobs."is_available" IS NOT TRUE;
  END IF;
  INSERT INTO "graphile_worker"."_private_jobs" AS jobs ("task_id", "payload", "run_at", "max_attempts", "key", "priority")
  SELECT tasks."id", coalesce("job_payload", '{}'::json), "due_at", "job_max_attempts", "job_key", 0
  FROM "graphile_worker"."_private_tasks" AS tasks WHERE tasks."identifier" = "task"
  ON CONFLICT ("key") DO UPDATE SET
    "job_queue_id" = excluded."job_queue_id", "task_id" = excluded."task_id",
    "payload" = CASE WHEN json_typeof(jobs."payload") = 'array' AND json_typeof(excluded."payload") = 'array'
      THEN (jobs."payload"::jsonb || excluded."payload"::jsonb)::json ELSE excluded."payload" END,
    "max_attempts" = excluded."max_attempts", "run_at" = excluded."run_at", "priority" = excluded."priority",
    "revision" = jobs."revision" + 1, "flags" = excluded."flags", "attempts" = 0, "last_error" = NULL, "updated_at" = now()
  WHERE jobs."locked_at" IS NULL;
  IF NOT EXISTS (SELECT 1 FROM "graphile_worker"."_private_tasks" AS tasks WHERE tasks."identifier" = "task") THEN
    RAISE EXCEPTION 'add_job_quietly: no task %', "task";
  END IF;
END $$;
