-- add_job_quietly (migration 0051) as add_job adds a job, less one race add_job has: when a worker
-- is taking the key's waiting job at that moment, the insert waits for the taking and then finds
-- the job running, so neither replaces it nor adds one, and the change that called for the job
-- (an approval given while its payout's start was being taken) went unseen. Asked again, the
-- running job's key is cleared and a new one added. jobs/repo.ts asks add_job and add_jobs again
-- the same way.
CREATE OR REPLACE FUNCTION "add_job_quietly"("task" text, "job_payload" json, "job_max_attempts" smallint, "job_key" text, "due_at" timestamptz)
RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  "written" integer := 0;
BEGIN
  IF NOT EXISTS (SELECT 1 FROM "graphile_worker"."_private_tasks" AS tasks WHERE tasks."identifier" = "task") THEN
    RAISE EXCEPTION 'add_job_quietly: no task %', "task";
  END IF;
  FOR "try" IN 1..3 LOOP
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
    GET DIAGNOSTICS "written" = ROW_COUNT;
    EXIT WHEN "written" > 0;
  END LOOP;
  IF "written" = 0 THEN
    RAISE EXCEPTION 'add_job_quietly: the job of key % was taken three times while being added', "job_key";
  END IF;
END $$;
