import { sql, type SQL } from 'drizzle-orm';
import type { Tx } from '../client.js';

// A job's row written by a bigger statement (the initiation's, transfers/initiation-statement.ts),
// so that it commits with that statement's rows in one round trip; it lives here, beside no module.

/**
 * The insert of a job without a key for each row of `forEachRowOf` (CTEs of the bigger statement
 * this is part of; task, payload and attempts are expressions over them): the row graphile-worker's
 * `add_job` writes for such a job (every other column its default), without the
 * function's work for keys and new tasks and without its NOTIFY, whose commit-time lock serializes
 * every committing transaction. Measured, `add_job` and its NOTIFY were two thirds of the
 * initiation's statement (docs/decisions/022-initiation-throughput.md). The caller wakes the
 * workers itself once the statement has committed (JobWaker). The task's row must exist
 * (registerJobKinds, at migration); without it `task_id` is null and the statement fails whole.
 * graphile-worker names this table private: tests/api/jobs-queue-table.test.ts checks such a row
 * is the one `add_job` writes, against the installed version.
 */
export function jobRowInsert(task: SQL, payloadJson: SQL, maxAttempts: SQL, forEachRowOf: SQL): SQL {
  return sql`insert into graphile_worker._private_jobs (task_id, payload, max_attempts)
    select (select id from graphile_worker._private_tasks where identifier = ${task}), ${payloadJson}, ${maxAttempts}
    from ${forEachRowOf}`;
}

/**
 * A job added in a bigger statement as `add_job` adds it ('replace' mode for its key), without its
 * NOTIFY (add_job_quietly, migration 0051): for a job due now, the caller wakes the workers once
 * the statement has committed (JobWaker).
 */
export function quietJobAdd(task: string, payloadJson: SQL, maxAttempts: number, key: SQL, runAt: SQL = sql`now()`): SQL {
  return sql`add_job_quietly(${task}, ${payloadJson}, ${maxAttempts}::smallint, ${key}, ${runAt})`;
}

/** A job to add among many in one statement (graphile-worker's job_spec). */
export interface JobSpec {
  identifier: string;
  payload: unknown;
  max_attempts: number;
  /** graphile-worker's job key ('replace' mode: the waiting job of this key is replaced, run_at included). */
  job_key?: string | null;
  /** ISO time; now when absent. */
  run_at?: string | null;
}

/**
 * Adds many jobs in one statement through graphile-worker's `add_jobs` (one NOTIFY for all), in
 * the caller's transaction: a job per row of a set-wise change (a bank file's transfers), where
 * `add_job` would be a round trip each.
 */
export function addJobs(tx: Tx, specs: readonly JobSpec[]): Promise<void> {
  return addAll(tx, specs, (json) => sql`select key from graphile_worker.add_jobs(array(
    select json_populate_record(null::graphile_worker.job_spec, j) from json_array_elements(${json}::json) j))`);
}

/**
 * `addJobs` for jobs due later, without the NOTIFY (add_jobs_quietly, migration 0061): the workers
 * find them by polling once they are due. A sender's grouped e-mail, due a window after its first step.
 */
export function addJobsDueLater(tx: Tx, specs: readonly JobSpec[]): Promise<void> {
  return addAll(tx, specs, (json) => sql`select add_jobs_quietly(${json}::json) as key`);
}

/** Adds the jobs by `statement`; a keyed job it did not add (its key's waiting job was being taken by a worker: jobs/repo.ts addJob) is asked again. */
async function addAll(tx: Tx, specs: readonly JobSpec[], statement: (json: string) => SQL): Promise<void> {
  let left = specs;
  for (let tries = 0; tries < 3 && left.length > 0; tries++) {
    const { rows } = await tx.execute<{ key: string | null }>(statement(JSON.stringify(left)));
    const added = new Set(rows.map((r) => r.key));
    left = left.filter((spec) => spec.job_key && !added.has(spec.job_key));
  }
  if (left.length > 0) throw new Error(`jobs of keys ${left.map((spec) => spec.job_key).join(', ')} were taken three times while being added`);
}

/**
 * The payloads of the waiting (not taken) jobs of these keys, their rows locked in the keys' order
 * until the transaction ends: key → payload. A job of one of these keys that a worker is running
 * loses its key: the job added again under that key then waits beside it instead of replacing it,
 * which in graphile-worker's 'replace' mode would spend the running job's attempts (a failed run
 * not retried) though the new job does not carry its payload.
 */
export async function waitingPayloads(tx: Tx, keys: readonly string[]): Promise<Map<string, unknown>> {
  if (keys.length === 0) return new Map();
  const { rows } = await tx.execute<{ key: string; payload: unknown }>(sql`with running as (update graphile_worker._private_jobs set key = null
      where key = any(${sql.param(keys)}::text[]) and locked_at is not null)
    select key, payload from graphile_worker._private_jobs
    where key = any(${sql.param(keys)}::text[]) and locked_at is null order by key for update`);
  return new Map(rows.map((r) => [r.key, r.payload]));
}
