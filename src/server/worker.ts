import { Logger as WorkerLogger, parseCronItems, run, type Runner, type TaskList } from 'graphile-worker';
import type { Pool } from 'pg';
import type { Logger } from 'pino';
import type { Config } from '@server/config.js';
import type { Db } from '@server/db/client.js';
import { deliverMail } from './modules/mail/service.js';
import type { Mailer } from './modules/mail/mailer.js';
import { workerLiveness } from './worker-liveness.js';
import { eraseExpiredAccounts } from './modules/privacy/service.js';
import { runMonitoringSweep } from './modules/monitoring/sweep.js';
import { configuredLists, runScreeningFetch } from './modules/screening/fetch.js';
import { runListImport } from './modules/screening/list-imports.js';
import { runRescreen } from './modules/screening/rescreen.js';
import { runMrzReadJob } from './modules/kyc/mrz.js';
import { anyOperatorConfigured, runCollectionEnquireJob, runCollectionSendJob, runPayoutEnquireJob, runPayoutStartJob, runPaypalWebhookVerifyJob, runRailBalanceJob, runRailBalancesJob } from './modules/rails/service.js';
import { deleteOldQuotes } from './modules/quotes/service.js';
import { bankAccount, cutoffCron, runBankFileCutoff, runBankFileMailsJob, runStatementMailsJob, runStatementsDirImport } from './modules/bank/service.js';
import { fetchEcbRates } from './modules/rates/ecb.js';
import { finishInterruptedChecks } from './modules/transfers/initiate-transfer.js';
import { runRefundJob } from './modules/transfers/refund-paypal-payment.js';
import { runTransferMailJob } from './modules/transfers/notifications.js';
import { runVoidJob } from './modules/transfers/void-paypal-authorization.js';

// The worker that does queued jobs: in the server process by default (RUN_WORKER), or alone as
// `npm run worker`. See docs/decisions/014-durable-jobs.md.

export interface WorkerDeps {
  config: Config;
  pool: Pool;
  db: Db;
  mailer: Mailer;
  log: Logger;
  /** Jobs at once: IN_PROCESS_JOBS inside a server, WORKER_PROCESS_JOBS in `npm run worker`. */
  concurrency: number;
}

/**
 * A server's own worker takes one job at a time: its requests come first. Several workers of one
 * process asking for jobs at once from a deep queue (a burst's e-mails) cost PostgreSQL far more
 * than the jobs themselves, each passing over the rows the others hold: with 4, 200 senders
 * initiating at once got 1,500 answers a second and p99 ≈ 280 ms; with 1, 2,265 and 214 ms
 * (docs/decisions/022-initiation-throughput.md). A process that only works jobs takes four at a
 * time (e-mails wait mostly on the mail server, not on this machine).
 */
export const IN_PROCESS_JOBS = 1;
export const WORKER_PROCESS_JOBS = 4;

/** A worker has no price cache of its own: a rate it sets reaches every server's cache by NOTIFY. */
const NO_CACHE = { invalidate: () => undefined };

/** How often a worker process looks for jobs locked by workers that died. */
const LIVENESS_SWEEP_MS = 5_000;

export interface JobWorker {
  /** Whether it still takes jobs: false once stopped, or once one of its workers died. */
  alive(): boolean;
  /** Settles when one of its workers dies (not when stopped): the process takes no more jobs. */
  died: Promise<void>;
  /** Takes no new job, lets the running ones finish (those still running after 5 s fail and retry). */
  stop(): Promise<void>;
}

/** graphile-worker's log lines, through our logger. */
export function workerLogger(log: Logger): WorkerLogger {
  // Its metadata can carry a whole job, payload included (codes, reset links): only the job's
  // id and task go to our logs, with the message. A failure's message quotes the error's text and
  // stack, which for a failed query hold its values: the error goes through the logger's `err`
  // serializer instead, which leaves them out.
  return new WorkerLogger((scope) => (level, message, meta) => {
    const method = level === 'error' ? 'error' : level === 'warning' ? 'warn' : level === 'info' ? 'info' : 'debug';
    const error = meta?.error;
    const fields = { job: scope.jobId, task: scope.taskIdentifier, worker: scope.workerId, ...(error ? { err: error } : {}) };
    log[method](fields, error ? message.replace(/ with error '[\s\S]*$/, '') : message);
  });
}

/**
 * Scheduled jobs: graphile-worker adds each once per time it is due, whichever process's worker
 * sees it first, and one missed while no worker ran is added when one starts again within a day.
 * The retention job erases closed accounts past their retention (docs/rules/your-data.md); the
 * quotes' clean-up, every 10 minutes, deletes expired ones within the hour after they expire
 * (those a transfer used a week after) (docs/rules/fees-and-rates.md#a-quote-is-a-promise).
 */
const schedule = (maxAttempts: number, ecbUrl: string | undefined, screeningFetch: boolean, rails: boolean, bankCutoff: string | null, statementsDir: boolean) => parseCronItems([
  { task: 'privacy_erasure', match: '17 3 * * *', identifier: 'privacy_erasure', options: { backfillPeriod: 24 * 3600_000, maxAttempts, jobKey: 'privacy_erasure' } },
  { task: 'quote_cleanup', match: '*/10 * * * *', identifier: 'quote_cleanup', options: { backfillPeriod: 0, maxAttempts, jobKey: 'quote_cleanup' } },
  // The ECB's reference rates, published on weekdays around 16:00 CET, when ECB_RATES_URL is set (rates/ecb.ts).
  ...(ecbUrl ? [{ task: 'ecb_rates', match: '30 16 * * 1-5', identifier: 'ecb_rates', options: { backfillPeriod: 24 * 3600_000, maxAttempts, jobKey: 'ecb_rates' } }] : []),
  // Transaction monitoring's nightly sweep over the last day's transfers (docs/rules/monitoring.md).
  { task: 'monitoring_sweep', match: '53 3 * * *', identifier: 'monitoring_sweep', options: { backfillPeriod: 24 * 3600_000, maxAttempts, jobKey: 'monitoring_sweep' } },
  // Every 10 minutes: the initiation checks a crash interrupted, finished (transfers/initiate-transfer.ts);
  // the transfer stays held meanwhile. Not every minute: each run writes a job row, for a rare event.
  { task: 'compliance_checks', match: '*/10 * * * *', identifier: 'compliance_checks', options: { backfillPeriod: 0, maxAttempts, jobKey: 'compliance_checks' } },
  // The sanctions lists from their configured URLs every 6 hours, when any is set (screening/fetch.ts).
  // Every 5 minutes, when an operator's credentials are set: each rail's float balance (rails/balance.ts).
  ...(rails ? [{ task: 'rail_balances', match: '*/5 * * * *', identifier: 'rail_balances', options: { backfillPeriod: 0, maxAttempts, jobKey: 'rail_balances' } }] : []),
  // The daily bank file at BANK_FILE_CUTOFF (UTC), when set with the bank's account (bank/cutoff.ts); one missed while no worker ran is made within 6 hours.
  ...(bankCutoff ? [{ task: 'bank_file_cutoff', match: cutoffCron(bankCutoff), identifier: 'bank_file_cutoff', options: { backfillPeriod: 6 * 3600_000, maxAttempts, jobKey: 'bank_file_cutoff' } }] : []),
  // Every 10 minutes, when BANK_STATEMENTS_DIR is set: the bank's statements dropped in that folder (bank/statements-dir.ts).
  ...(statementsDir ? [{ task: 'bank_statements_fetch', match: '*/10 * * * *', identifier: 'bank_statements_fetch', options: { backfillPeriod: 0, maxAttempts, jobKey: 'bank_statements_fetch' } }] : []),
  ...(screeningFetch ? [{ task: 'screening_fetch', match: '23 */6 * * *', identifier: 'screening_fetch', options: { backfillPeriod: 6 * 3600_000, maxAttempts, jobKey: 'screening_fetch' } }] : []),
]);

export async function startWorker(deps: WorkerDeps): Promise<JobWorker> {
  const taskList: TaskList = {
    mail: (payload, helpers) => deliverMail(deps, payload, helpers.abortSignal),
    // A sender's e-mail gathering the steps of one transfer done close together (transfers/notifications.ts).
    transfer_mail: (payload, helpers) => runTransferMailJob(deps, payload, helpers.abortSignal),
    // PayPal's side of a closed or refunded transfer (transfers/void-paypal-authorization.ts, refund-paypal-payment.ts).
    paypal_void: (payload) => runVoidJob(deps, payload),
    paypal_refund: (payload) => runRefundJob(deps, payload),
    privacy_erasure: async () => { await eraseExpiredAccounts(deps); },
    quote_cleanup: async () => { await deleteOldQuotes(deps); },
    ecb_rates: async (_payload, helpers) => {
      if (deps.config.ECB_RATES_URL) await fetchEcbRates({ ...deps, prices: NO_CACHE }, deps.config.ECB_RATES_URL, helpers.abortSignal);
    },
    monitoring_sweep: async () => { await runMonitoringSweep(deps); },
    // Everyone screened again after a sanctions list version changed (screening/rescreen.ts).
    screening_rescreen: (payload) => runRescreen(deps, payload),
    // A sanctions list file uploaded by the admin, imported (screening/list-imports.ts).
    screening_import: (payload, helpers) => runListImport(deps, payload, helpers.job),
    // The sanctions lists fetched from their configured URLs (screening/fetch.ts).
    screening_fetch: (_payload, helpers) => runScreeningFetch(deps, helpers.abortSignal),
    compliance_checks: async () => { await finishInterruptedChecks(deps); },
    // The machine-readable zone of an uploaded identity document (kyc/mrz.ts).
    kyc_mrz_read: (payload) => runMrzReadJob(deps, payload),
    // A payout through an operator's rail, and the enquiries that follow it (rails/payouts.ts).
    payout_start: (payload, helpers) => runPayoutStartJob(deps, payload, helpers.job),
    payout_enquire: (payload, helpers) => runPayoutEnquireJob(deps, payload, helpers.job),
    // PayPal asked whether it sent a stored webhook, then its payout's enquiry brought forward (rails/paypal-webhooks.ts).
    paypal_webhook_verify: (payload, helpers) => runPaypalWebhookVerifyJob(deps, payload, helpers.job),
    // A sender's payment asked from their wallet, asked about until the operator says (rails/collections.ts).
    collection_send: (payload) => runCollectionSendJob(deps, payload),
    collection_enquire: (payload) => runCollectionEnquireJob(deps, payload),
    // The operators' float balances, read on schedule and after each payout ends (rails/balance.ts).
    rail_balance: (payload) => runRailBalanceJob(deps, payload),
    rail_balances: () => runRailBalancesJob(deps),
    bank_file_cutoff: async () => { await runBankFileCutoff(deps); },
    bank_file_mails: (payload) => runBankFileMailsJob(deps, payload),
    // The senders' e-mails about the payouts an import of a bank statement settled or returned (bank/statement-mails.ts).
    bank_statement_mails: (payload) => runStatementMailsJob(deps, payload),
    bank_statements_fetch: async () => { await runStatementsDirImport(deps); },
  };
  // A worker process killed outright has its jobs taken over within seconds (worker-liveness.ts): its
  // lock is held before a worker asks for a job, under the id that locks the jobs (graphile-worker
  // locks them by the pool's id, not the worker's), and this process looks for dead ones.
  const log = deps.log.child({ component: 'jobs' });
  const liveness = workerLiveness({ pool: deps.pool, log, sweepEveryMs: LIVENESS_SWEEP_MS });
  const runner: Runner = await run({
    pgPool: deps.pool,
    preset: {
      plugins: [{
        name: 'WorkerLivenessLocks', version: '1.0.0',
        worker: { hooks: { startWorker: (_ctx, { worker }) => liveness.hold(worker.workerPool.id) } },
      }],
      // A job's end recorded through graphile-worker's batcher, even alone (0 ms): its failure stops
      // the pool, which this process sees (below). Recorded directly, the write is not awaited, and
      // its failure (the database restarting) ended the whole process, the server with it.
      worker: { completeJobBatchDelay: 0, failJobBatchDelay: 0 },
    },
    taskList,
    // Scheduled work, given here so it never looks for a crontab file in the working directory.
    parsedCronItems: schedule(deps.config.JOB_MAX_ATTEMPTS, deps.config.ECB_RATES_URL, configuredLists(deps.config).length > 0, anyOperatorConfigured(deps.config),
      deps.config.BANK_FILE_CUTOFF && bankAccount(deps.config) ? deps.config.BANK_FILE_CUTOFF : null, !!deps.config.BANK_STATEMENTS_DIR),
    concurrency: deps.concurrency,
    // The server handles its own signals and stops the worker on close.
    noHandleSignals: true,
    // Its statements planned on each use: a plan prepared while the queue was nearly empty sorts
    // the whole queue to take its next job once a burst of transfers has filled it (57 ms at
    // 60,000 queued e-mails, against 0.3 ms by its index), and kept that plan for the burst.
    noPreparedStatements: true,
    pollInterval: 1000,
    gracefulShutdownAbortTimeout: 5000,
    logger: workerLogger(log),
  });
  await liveness.sweep().catch((err: unknown) => log.warn({ err: err instanceof Error ? err.message : String(err) }, 'job worker liveness sweep failed'));
  let stopped: Promise<void> | null = null;
  // A job's end that cannot be recorded (the database unreachable) stops the whole pool, and a
  // worker that dies otherwise is not replaced: this process then takes no more jobs until it
  // restarts, and its readiness says so. Once the pool has stopped, its liveness lock is let go, so
  // that another process takes over the jobs it left locked.
  let dead = false;
  let markDead = () => {};
  const died = new Promise<void>((resolve) => { markDead = resolve; });
  const dies = (error: unknown) => {
    if (stopped || dead) return;
    dead = true;
    log.error({ err: error instanceof Error ? error.message : String(error) }, 'a job worker stopped: this process takes no more jobs until it restarts');
    markDead();
  };
  // A runner that stopped itself (its pool gone) refuses to stop again: stop() then awaits its end,
  // whose error `dies` has already logged, instead of failing the shutdown.
  let runnerStopped = false;
  runner.events.on('stop', () => { runnerStopped = true; });
  runner.events.on('worker:stop', ({ error }) => { if (error) dies(error); });
  runner.promise.then(() => dies('the job queue stopped'), dies).finally(() => { if (!stopped) void liveness.close(); });
  return {
    alive: () => !stopped && !dead,
    died,
    stop: () => (stopped ??= (runnerStopped ? runner.promise.catch(() => {}) : runner.stop()).finally(() => liveness.close())),
  };
}
