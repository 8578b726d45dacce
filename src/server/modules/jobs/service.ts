import type { Job } from '@core/api/jobs.js';
import type { Db, Tx } from '@server/db/client.js';
import { AppError } from '@core/errors.js';
import * as repo from './repo.js';
import { recordAudit, type Actor } from '../audit/service.js';

/** Least time between two batches of a kind in one worker process (waker.ts says why). */
export { BATCH_EVERY_MS } from './waker.js';

// Durable work (docs/decisions/014-durable-jobs.md): jobs are added in the caller's transaction,
// done by the worker with retries and backoff, and parked for the admin once attempts run out.

/**
 * Every kind of job the worker knows: an e-mail, the release of a PayPal authorization, the
 * refund of a PayPal capture, the daily erasure of closed accounts past their retention.
 */
export const JOB_KINDS = ['mail', 'transfer_mail', 'paypal_void', 'paypal_refund', 'privacy_erasure', 'quote_cleanup', 'ecb_rates', 'monitoring_sweep', 'screening_rescreen', 'screening_import', 'screening_fetch', 'kyc_mrz_read', 'compliance_checks', 'payout_start', 'payout_enquire', 'collection_send', 'collection_enquire', 'rail_balance', 'rail_balances', 'bank_file_cutoff', 'bank_file_mails', 'bank_statement_mails', 'bank_statements_fetch', 'paypal_webhook_verify'] as const;
export type JobKind = (typeof JOB_KINDS)[number];

/**
 * Adds a job; with a transaction, it exists only if that transaction commits. A `key` names the
 * job while it waits, runs or is parked (graphile-worker's job key), so it can be found again.
 */
export function enqueue(db: Db | Tx, kind: JobKind, payload: unknown, maxAttempts: number, key?: string, runAt?: Date): Promise<void> {
  return repo.addJob(db, kind, payload, maxAttempts, key ?? null, runAt ?? null);
}

/** Adds a job unless one of this key is not done yet (waiting, running or parked): that one's work covers this one's. */
export function enqueueOnce(db: Db | Tx, kind: JobKind, payload: unknown, maxAttempts: number, key: string): Promise<void> {
  return repo.addJobOnce(db, kind, payload, maxAttempts, key);
}

/** Removes the job of this key that waits (one running finishes, not retried): work no longer needed. */
export const removeJob = (db: Db | Tx, key: string): Promise<void> => repo.removeJob(db, key);

/**
 * A job to add in the very statement of the change that causes it (one round trip instead of a
 * transaction's several): the statement writes its row with db/shared-sql/job-rows.ts.
 */
export interface NewJob { kind: JobKind; payload: unknown; maxAttempts: number }

/**
 * A batch: up to `count` other due jobs of the kind, taken for the worker running job `ownJobId`
 * (their payloads); the caller ends each with `endTakenJobs`, done or failed with its error.
 */
export const takeDueJobs = (db: Db, ownJobId: string, kind: JobKind, count: number): Promise<{ jobId: string; payload: unknown }[]> =>
  repo.takeDueJobs(db, ownJobId, kind, count);

/** Ends jobs taken by `takeDueJobs`: removed when done (error null), else retried later with graphile-worker's backoff; tried again for about 2 s when the database fails it. */
export const endTakenJobs = (db: Db, ownJobId: string, taken: readonly { jobId: string; error: string | null }[]): Promise<void> =>
  repo.endTakenJobs(db, ownJobId, taken);

/** The job of this key not done yet (waiting, running or parked), or null. */
export const pendingJob = (db: Db | Tx, key: string): Promise<repo.JobRow | null> => repo.findJobByKey(db, key);

/** Parked jobs for the admin: what failed and why, never the payload (it may hold codes or links). */
export async function listParked(db: Db, limit: number): Promise<Job[]> {
  return (await repo.parkedJobs(db, limit)).map(toJson);
}

/** How much work waits, how much is parked and how long the oldest has waited, for monitoring. */
export const queueStats = (db: Db): Promise<repo.QueueStats> => repo.queueStats(db);

/** The queue knows every kind of job before any is added (run with the migrations). */
export const registerJobKinds = (db: Db): Promise<void> => repo.registerJobKinds(db, JOB_KINDS);

export const indexLockedJobs = (db: Db): Promise<void> => repo.indexLockedJobs(db);
/** The functions that add jobs keep their plans per connection (run with the migrations). */
export const planJobFunctionsOnce = (db: Db): Promise<void> => repo.planJobFunctionsOnce(db);

export const countParked = (db: Db): Promise<number> => repo.countParked(db);

/** Puts a parked job back in line with fresh attempts: 404 unknown (or done), 409 not parked. */
export async function retryParked(db: Db, actor: Actor, id: string): Promise<Job> {
  if (!/^\d{1,18}$/.test(id)) throw new AppError('not_found');
  if (!(await repo.rescheduleParked(db, id))) {
    if (!(await repo.findJob(db, id))) throw new AppError('not_found');
    throw new AppError('not_parked');
  }
  const job = await repo.findJob(db, id);
  if (!job) throw new AppError('not_found');
  await recordAudit(db, actor, { action: 'job.retry', target: 'job', id, after: { kind: job.task_identifier, attempts: job.attempts } });
  return toJson(job);
}

function toJson(row: repo.JobRow): Job {
  return {
    id: String(row.id), kind: row.task_identifier, attempts: row.attempts, max_attempts: row.max_attempts,
    last_error: row.last_error, created_at: new Date(row.created_at).toISOString(), updated_at: new Date(row.updated_at).toISOString(),
  };
}
