import { sql, type SQL } from 'drizzle-orm';

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
