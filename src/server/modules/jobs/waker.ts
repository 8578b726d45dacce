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

export interface JobWaker {
  /**
   * `count` jobs have committed: the workers hear of them within EVERY_MS. Jobs a worker takes
   * 'in batches' (with the others of their kind waiting: takeDueJobs, a payout's enquiries) wake
   * one worker of each process however many came meanwhile, so they go in a few batches, not one
   * per idle worker of a few jobs each, every batch costing its statements.
   */
  added(count: number, taken?: 'one by one' | 'in batches'): void;
  /** Sends what is pending now; nothing more afterwards. */
  close(): Promise<void>;
}

export function jobWaker(pool: pg.Pool, log: Logger): JobWaker {
  let pending = 0;
  let batchPending = false;
  let lastSent = 0;
  let timer: NodeJS.Timeout | null = null;
  let closed = false;
  let sending: Promise<void> = Promise.resolve();

  function send() {
    timer = null;
    lastSent = Date.now();
    const count = pending + (batchPending ? 1 : 0);
    pending = 0;
    batchPending = false;
    sending = pool.query('select pg_notify($1, $2)', [CHANNEL, JSON.stringify({ count })]).then(
      () => {},
      (err: unknown) => log.warn({ err: err instanceof Error ? err.message : String(err) }, 'waking the job workers failed; they find the jobs when they next look'),
    );
  }

  return {
    added(count, taken = 'one by one') {
      if (closed) return;
      if (taken === 'in batches') batchPending = true;
      else pending += count;
      timer ??= setTimeout(send, Math.max(0, lastSent + EVERY_MS - Date.now()));
    },
    async close() {
      closed = true;
      if (timer) {
        clearTimeout(timer);
        send();
      }
      await sending;
    },
  };
}
