import { sql, type Placeholder, type SQL } from 'drizzle-orm';
import type { Db, Tx } from '@server/db/client.js';

// The queue's tables belong to graphile-worker (schema graphile_worker); we add jobs through its
// SQL function, so a job commits or rolls back with the caller's transaction, and read its view.

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

export async function addJob(db: Db | Tx, task: string, payload: unknown, maxAttempts: number, key: string | null = null): Promise<void> {
  await db.execute(sql`select ${addJobCall(task, JSON.stringify(payload), maxAttempts, key)}`);
}

/**
 * The call that adds a job, to run inside a bigger statement (it adds the job when evaluated);
 * values or placeholders, for a statement prepared once.
 */
export function addJobCall(task: string | Placeholder, payloadJson: string | Placeholder, maxAttempts: number | Placeholder,
  key: string | null | Placeholder = null): SQL {
  return sql`graphile_worker.add_job(${task}, ${payloadJson}::json, max_attempts => ${maxAttempts}::int, job_key => ${key}::text)`;
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
