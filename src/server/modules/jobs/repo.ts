import { sql } from 'drizzle-orm';
import type { Db, Tx } from '@server/db/client.js';

// The queue's tables belong to graphile-worker (schema graphile_worker); we add jobs through its
// SQL function, so a job commits or rolls back with the caller's transaction, and read its view.
// One statement, the initiation's, writes its job's row itself (db/shared-sql/job-rows.ts): see there why;
// a job due later goes through add_job_quietly, our copy of add_job without its NOTIFY (migration 0051).

export interface JobRow {
  id: string;
  task_identifier: string;
  attempts: number;
  max_attempts: number;
  last_error: string | null;
  locked_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export async function addJob(db: Db | Tx, task: string, payload: unknown, maxAttempts: number, key: string | null = null, runAt: Date | null = null): Promise<void> {
  // A job with a key replaces the one of that key still waiting (graphile-worker's 'replace' mode),
  // run_at included; one already running keeps going and this one waits its turn. A job due later
  // is added the same way without waking the workers: they find it by polling once it is due.
  if (runAt && runAt.getTime() > Date.now()) {
    await db.execute(sql`select add_job_quietly(${task}, ${JSON.stringify(payload)}::json, ${maxAttempts}::smallint, ${key}::text, ${runAt.toISOString()}::timestamptz)`);
    return;
  }
  // graphile-worker's add_job adds nothing when a worker is taking the key's waiting job at that
  // moment: it waits for the taking, then finds the job running. The change that called for this
  // job (an approval given while its payout's start was being taken) would go unseen; asked again,
  // add_job finds the job running and adds this one behind it. add_job_quietly and addJobs
  // (db/shared-sql/job-rows.ts) ask again the same way.
  for (let tries = 0; tries < 3; tries++) {
    const { rows } = await db.execute<{ id: string | null }>(sql`select (graphile_worker.add_job(${task}, ${JSON.stringify(payload)}::json,
      max_attempts => ${maxAttempts}::int, job_key => ${key}::text, run_at => ${runAt?.toISOString() ?? null}::timestamptz)).id::text as id`);
    if (rows[0]?.id) return;
  }
  throw new Error(`the job of key ${key} was taken three times while being added`);
}

/**
 * Adds a job unless one of this key is not done yet (waiting, running or parked): graphile-worker's
 * 'unsafe_dedupe' mode, for work that the first job of the key already covers.
 */
export async function addJobOnce(db: Db | Tx, task: string, payload: unknown, maxAttempts: number, key: string): Promise<void> {
  await db.execute(sql`select graphile_worker.add_job(${task}, ${JSON.stringify(payload)}::json, max_attempts => ${maxAttempts}::int, job_key => ${key}::text, job_key_mode => 'unsafe_dedupe')`);
}

/** Removes the waiting job of this key (graphile-worker's remove_job); a running one finishes and is not retried. */
export async function removeJob(db: Db | Tx, key: string): Promise<void> {
  await db.execute(sql`select graphile_worker.remove_job(${key}::text)`);
}

/**
 * Takes up to `count` other due jobs of the task for the worker running job `ownJobId` (a batch),
 * as graphile-worker takes one: locked by the same worker, their attempt counted. One the worker
 * dies holding is freed by the liveness sweep like its own (src/server/worker-liveness.ts). graphile-worker
 * has no call for this; tests/api/jobs-queue-table.test.ts checks the rows against its own.
 */
export async function takeDueJobs(db: Db, ownJobId: string, task: string, count: number): Promise<{ jobId: string; payload: unknown }[]> {
  const { rows } = await db.execute<{ id: string; payload: unknown }>(sql`with own as (select locked_by from graphile_worker._private_jobs where id = ${ownJobId}::bigint),
    due as (select j.id from graphile_worker._private_jobs j
      where j.is_available = true and j.run_at <= now() and j.job_queue_id is null and j.id <> ${ownJobId}::bigint
        and j.task_id = (select id from graphile_worker._private_tasks where identifier = ${task})
      order by j.priority, j.run_at limit ${count} for update skip locked)
    update graphile_worker._private_jobs j set attempts = j.attempts + 1, locked_by = own.locked_by, locked_at = now()
    from due, own where j.id = due.id and own.locked_by is not null
    returning j.id::text, j.payload`);
  return rows.map((r) => ({ jobId: r.id, payload: r.payload }));
}

/**
 * Pauses before ending taken jobs again when the statement failed (its connection lost, the
 * database restarting): left locked by a live worker, they would wait 4 hours, as neither
 * graphile-worker nor the liveness sweep frees them sooner. Together shorter than a failed job's
 * least backoff (e s), so a repeat after a try that committed unseen never unlocks one taken again.
 */
const END_AGAIN_AFTER_MS = [250, 500, 1_000];

/**
 * Jobs taken by `takeDueJobs` ended as graphile-worker ends one: removed when done, else unlocked
 * to run again after its backoff with their error. Still failing after the repeats, the error fails
 * the batch's own jobs; if graphile-worker cannot record that either (the database still away), it
 * stops the worker pool, and the liveness sweep frees all its jobs, these included.
 */
export async function endTakenJobs(db: Db, ownJobId: string, taken: readonly { jobId: string; error: string | null }[]): Promise<void> {
  if (taken.length === 0) return;
  for (const pause of END_AGAIN_AFTER_MS) {
    try {
      return await endTaken(db, ownJobId, taken);
    } catch {
      await new Promise((resolve) => setTimeout(resolve, pause));
    }
  }
  await endTaken(db, ownJobId, taken);
}

/** One try; safe to repeat: a job already ended is no longer locked by the worker. */
async function endTaken(db: Db, ownJobId: string, taken: readonly { jobId: string; error: string | null }[]): Promise<void> {
  await db.execute(sql`with own as (select locked_by from graphile_worker._private_jobs where id = ${ownJobId}::bigint),
    t as (select * from json_to_recordset(${JSON.stringify(taken)}::json) as t("jobId" bigint, error text)),
    done as (delete from graphile_worker._private_jobs j using t, own where j.id = t."jobId" and t.error is null and j.locked_by = own.locked_by)
    update graphile_worker._private_jobs j set last_error = t.error, run_at = greatest(now(), j.run_at) + exp(least(j.attempts, 10)) * interval '1 second',
      locked_by = null, locked_at = null
    from t, own where j.id = t."jobId" and t.error is not null and j.locked_by = own.locked_by`);
}

/**
 * The jobs locked by a worker, found without reading the whole queue: the liveness sweep looks
 * for them every few seconds (src/server/worker-liveness.ts), and read every job to find them (190 ms at
 * 100,000 queued e-mails). Only locked jobs are in it, so adding a job costs it nothing.
 */
export async function indexLockedJobs(db: Db): Promise<void> {
  await db.execute(sql`create index if not exists jobs_locked_index on graphile_worker._private_jobs (locked_at) where locked_by is not null`);
}

/**
 * The functions that add jobs (graphile-worker's add_job and add_jobs, our quiet copies) plan
 * their statements once per connection: left to choose, PostgreSQL planned them again on every
 * call (a custom plan for each job's values), a tenth of its CPU at 100 payouts a second, for
 * plans that never change. Set after every migration: graphile-worker's own may create its
 * functions again without the setting.
 */
export async function planJobFunctionsOnce(db: Db): Promise<void> {
  await db.execute(sql.raw(`do $$ declare f regprocedure; begin
    for f in select p.oid::regprocedure from pg_proc p join pg_namespace n on n.oid = p.pronamespace
      where (n.nspname = 'graphile_worker' and p.proname in ('add_job', 'add_jobs')) or (n.nspname = current_schema() and p.proname in ('add_job_quietly', 'add_jobs_quietly'))
    loop execute format('alter function %s set plan_cache_mode = force_generic_plan', f); end loop;
  end $$`));
}

/** The queue's rows for each kind of job, which `add_job` would otherwise add on its first use of a kind. */
export async function registerJobKinds(db: Db, kinds: readonly string[]): Promise<void> {
  await db.execute(sql`insert into graphile_worker._private_tasks (identifier) select unnest(${sql.param(kinds)}::text[]) on conflict do nothing`);
}

const COLUMNS = sql`id::text as id, task_identifier, attempts, max_attempts, last_error, locked_at, created_at, updated_at`;
// A parked job: every attempt spent. graphile-worker keeps it, unlocked, until it is rescheduled.
// A locked one is still on its last attempt (its attempts are counted when it is taken).
const PARKED = sql`attempts >= max_attempts and locked_at is null`;

export async function parkedJobs(db: Db, limit: number): Promise<JobRow[]> {
  const rows = await db.execute(sql`select ${COLUMNS} from graphile_worker.jobs where ${PARKED} order by updated_at desc, id desc limit ${limit}`);
  return rows.rows as unknown as JobRow[];
}

export async function countParked(db: Db): Promise<number> {
  const rows = await db.execute(sql`select count(*)::int as n from graphile_worker.jobs where ${PARKED}`);
  return (rows.rows[0] as { n: number }).n;
}

/** Jobs not done (waiting, scheduled for a retry or running), parked ones, and the age of the oldest not done. */
export interface QueueStats { pending: number; parked: number; oldest_pending_seconds: number }

/** One pass over the queue's rows (done jobs are deleted, so it holds only what is left to do or parked). */
export async function queueStats(db: Db): Promise<QueueStats> {
  const rows = await db.execute(sql`select
      count(*) filter (where not (${PARKED}))::int as pending,
      count(*) filter (where ${PARKED})::int as parked,
      coalesce(extract(epoch from now() - min(created_at) filter (where not (${PARKED}))), 0)::float8 as oldest_pending_seconds
    from graphile_worker.jobs`);
  return rows.rows[0] as unknown as QueueStats;
}

export async function findJob(db: Db, id: string): Promise<JobRow | null> {
  const rows = await db.execute(sql`select ${COLUMNS} from graphile_worker.jobs where id = ${id}::bigint`);
  return (rows.rows[0] as unknown as JobRow | undefined) ?? null;
}

/** The job holding this key, waiting, running or parked; null once done (graphile-worker deletes it). */
export async function findJobByKey(db: Db | Tx, key: string): Promise<JobRow | null> {
  const rows = await db.execute(sql`select ${COLUMNS} from graphile_worker.jobs where key = ${key}`);
  return (rows.rows[0] as unknown as JobRow | undefined) ?? null;
}

/** A parked job back in line with fresh attempts; false when it was not parked (or is gone). */
export async function rescheduleParked(db: Db, id: string): Promise<boolean> {
  // Parked jobs are never locked (no worker takes them), so the check and the reschedule agree.
  const rows = await db.execute(sql`
    select id from graphile_worker.reschedule_jobs(
      array(select id from graphile_worker.jobs where id = ${id}::bigint and ${PARKED}),
      run_at => now(), attempts => 0)`);
  return rows.rows.length > 0;
}
