import type { AppContext } from '../context.js';
import { listenForPriceEdits } from '../lib/price-cache.js';
import { IN_PROCESS_JOBS, type JobWorker, startWorker } from '../worker.js';
import { shared } from './shared.js';

/**
 * What the context holds open, started and closed with the app: the rate limiter, the job waker,
 * the in-process worker (RUN_WORKER), the mailer and the price listener. Shared: the hooks run in
 * the order the app had them, the worker stopped before the database closes.
 */
export const resources = shared<{ ctx: AppContext; closeMailer: boolean }>('resources', async (app, { ctx, closeMailer }) => {
  const { config, database, log } = ctx;
  app.addHook('onClose', () => ctx.limiter.close());
  app.addHook('onClose', () => ctx.jobWaker.close());
  // Started once the app is ready; `npm run worker` runs the same worker alone.
  let worker: JobWorker | null = null;
  if (config.RUN_WORKER) {
    app.addHook('onReady', async () => {
      worker = await startWorker({ config, pool: database.pool, db: database.db, mailer: ctx.mailer, log, concurrency: IN_PROCESS_JOBS });
      ctx.readiness.worker = worker;
    });
  }
  // The worker's e-mails in flight are sent before the mail connections close (a mailer given
  // by the caller is the caller's to close).
  app.addHook('onClose', async () => {
    await worker?.stop();
    if (closeMailer) ctx.mailer.close();
  });
  // Published prices are served from memory while this process hears every edit's NOTIFY.
  const priceListener = listenForPriceEdits(database.url, ctx.prices, log);
  app.addHook('onClose', () => priceListener.close());
  await priceListener.ready;
});
