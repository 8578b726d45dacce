import { sql } from 'drizzle-orm';
import type { Db, Tx } from '@server/db/client.js';

// The queue's tables belong to graphile-worker (schema graphile_worker); we add jobs through its
// SQL function, so a job commits or rolls back with the caller's transaction, and read its view.
// One statement, the initiation's, writes its job's row itself (db/shared-sql/job-rows.ts): see there why.

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
  // run_at included; one already running keeps going and this one waits its turn.
  await db.execute(sql`select graphile_worker.add_job(${task}, ${JSON.stringify(payload)}::json, max_attempts => ${maxAttempts}::int, job_key => ${key}::text, run_at => ${runAt?.toISOString() ?? null}::timestamptz)`);
}

/** Removes the waiting job of this key (graphile-worker's remove_job); a running one finishes and is not retried. */
export async function removeJob(db: Db | Tx, key: string): Promise<void> {
  await db.execute(sql`select graphile_worker.remove_job(${key}::text)`);
}

/** The payload of the job of this key that no worker holds, its row locked (a worker skips it) until the transaction ends. */
export async function waitingPayload(tx: Tx, key: string): Promise<unknown> {
  const rows = await tx.execute(sql`select payload from graphile_worker._private_jobs where key = ${key} and locked_at is null for update`);
  return (rows.rows[0] as { payload: unknown } | undefined)?.payload ?? null;
}

/**
 * The jobs locked by a worker, found without reading the whole queue: the liveness sweep looks
 * for them every few seconds (src/server/worker-liveness.ts), and read every job to find them (190 ms at
 * 100,000 queued e-mails). Only locked jobs are in it, so adding a job costs it nothing.
 */
export async function indexLockedJobs(db: Db): Promise<void> {
  await db.execute(sql`create index if not exists jobs_locked_index on graphile_worker._private_jobs (locked_at) where locked_by is not null`);
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
