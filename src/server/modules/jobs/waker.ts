import type pg from 'pg';
import type { Logger } from 'pino';

// Jobs written without graphile-worker's NOTIFY (db/shared-sql/job-rows.ts) still start at once:
// the process that wrote them sends the NOTIFY the workers listen for, after the write committed,
// one for all the jobs written within a few milliseconds. A NOTIFY lost (the process stopped, the
// database was unreachable) only delays the job until a worker next polls (about a second).

/** graphile-worker's channel: its workers take as many jobs as the message's count says. */
const CHANNEL = 'jobs:insert';

/** At most one NOTIFY this often, so a busy server sends a few a second instead of one a job. */
const EVERY_MS = 20;
/**
 * Least time between two batches of a kind in one worker process (rails/payouts.ts). Under load the
 * jobs its workers take meanwhile wait for the next batch and go together, with the due ones still
 * waiting: at 100 payouts a second, fewer and larger batches halved the CPU a payout costs
 * (docs/benchmarks.md#payouts). A job after a quiet spell goes at once. Jobs taken in batches wake
 * the workers no more often: a wake-up sooner only has a worker take a job to hold until then
 * (callbacks arriving one by one at 50 a second each sent a NOTIFY, each waking a worker of every
 * process to ask the queue for a job).
 */
export const BATCH_EVERY_MS = 250;

export interface JobWaker {
  /**
   * `count` jobs have committed: the workers hear of them within EVERY_MS. Jobs a worker takes
   * 'in batches' (with the others of their kind waiting: takeDueJobs, a payout's enquiries) wake
   * one worker of each process however many came meanwhile, at most every BATCH_EVERY_MS, so they
   * go in a few batches, not one per idle worker of a few jobs each, every batch costing its statements.
   */
  added(count: number, taken?: 'one by one' | 'in batches'): void;
  /** Sends what is pending now; nothing more afterwards. */
  close(): Promise<void>;
}

export function jobWaker(pool: pg.Pool, log: Logger): JobWaker {
  let pending = 0;
  let batchPending = false;
  let lastSent = 0;
  let lastBatchSent = 0;
  let timer: NodeJS.Timeout | null = null;
  let timerAt = 0;
  let closed = false;
  let sending: Promise<void> = Promise.resolve();

  /** The next NOTIFY at the soonest of what waits: a job taken one by one sooner than a batch's. */
  function schedule() {
    const at = pending > 0 ? lastSent + EVERY_MS : Math.max(lastSent + EVERY_MS, lastBatchSent + BATCH_EVERY_MS);
    if (timer && timerAt <= at) return;
    if (timer) clearTimeout(timer);
    timerAt = at;
    timer = setTimeout(send, Math.max(0, at - Date.now()));
  }

  function send(all = false) {
    timer = null;
    const now = Date.now();
    const batch = batchPending && (all || now >= lastBatchSent + BATCH_EVERY_MS);
    const count = pending + (batch ? 1 : 0);
    pending = 0;
    if (batch) {
      batchPending = false;
      lastBatchSent = now;
    }
    if (count > 0) {
      lastSent = now;
      sending = pool.query('select pg_notify($1, $2)', [CHANNEL, JSON.stringify({ count })]).then(
        () => {},
        (err: unknown) => log.warn({ err: err instanceof Error ? err.message : String(err) }, 'waking the job workers failed; they find the jobs when they next look'),
      );
    }
    if (batchPending) schedule();
  }

  return {
    added(count, taken = 'one by one') {
      if (closed) return;
      if (taken === 'in batches') batchPending = true;
      else pending += count;
      schedule();
    },
    async close() {
      closed = true;
      if (timer) {
        clearTimeout(timer);
        send(true);
      }
      await sending;
    },
  };
}
