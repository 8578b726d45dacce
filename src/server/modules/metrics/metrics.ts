import { createHash, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { Config } from '@server/config.js';
import type { Database } from '@server/db/client.js';
import { AppError } from '@core/errors.js';
import { heldTransferCount } from '../holds/service.js';
import { queueStats } from '../jobs/service.js';

// Prometheus metrics (README "Monitoring"; docs/grafana-dashboard.json reads them). Counted as
// things happen: request durations, wrong passwords. Read when Prometheus scrapes: the job queue
// (one cheap query) and the PostgreSQL pool.

export interface AppMetrics {
  readonly registry: Registry;
  /** A password sign-in refused (wrong password or unknown address). */
  signInFailed(): void;
}

const seconds = (ms: number) => ms / 1000;

/** The app's metrics in a registry of its own (tests run several apps in one process). */
export function createMetrics(database: Database): AppMetrics {
  const registry = new Registry();
  const signInFailures = new Counter({
    name: 'gabremit_sign_in_failures_total', help: 'Password sign-ins refused for a wrong password or an unknown address', registers: [registry],
  });
  // The three queue gauges share one query per scrape: the first to ask starts it, the others wait for it.
  let reading: Promise<Awaited<ReturnType<typeof queueStats>>> | null = null;
  const queue = () => reading ??= queueStats(database.db).finally(() => { reading = null; });
  const queueGauge = (name: string, help: string, pick: (q: Awaited<ReturnType<typeof queueStats>>) => number) => new Gauge({
    name, help, registers: [registry],
    async collect() { this.set(pick(await queue())); },
  });
  queueGauge('gabremit_job_queue_pending', 'Background jobs (e-mails, PayPal voids and refunds) not done yet: waiting, scheduled for a retry or running', (q) => q.pending);
  queueGauge('gabremit_job_queue_parked', 'Background jobs parked after their last attempt failed, waiting for an admin to retry them', (q) => q.parked);
  queueGauge('gabremit_job_queue_oldest_pending_seconds', 'Age of the oldest background job not done yet (0 when none)', (q) => q.oldest_pending_seconds);
  new Gauge({
    name: 'gabremit_held_transfers', help: 'Transfers not closed that a compliance hold (screening, monitoring, stale lists) keeps from being processed', registers: [registry],
    async collect() { this.set(await heldTransferCount(database.db)); },
  });
  const poolGauge = (name: string, help: string, read: () => number) => new Gauge({
    name, help, registers: [registry],
    collect() { this.set(read()); },
  });
  const { pool } = database;
  poolGauge('gabremit_db_pool_connections', 'PostgreSQL connections open in this process\'s pool', () => pool.totalCount);
  poolGauge('gabremit_db_pool_idle_connections', 'PostgreSQL connections open and idle in the pool', () => pool.idleCount);
  poolGauge('gabremit_db_pool_waiting_clients', 'Queries waiting for a free PostgreSQL connection', () => pool.waitingCount);
  return { registry, signInFailed: () => signInFailures.inc() };
}

/**
 * Serves the metrics when configured: at `/metrics` for `Authorization: Bearer METRICS_TOKEN`,
 * and on METRICS_PORT without a token (a port for a private network). Unset, nothing is served and
 * no request is timed. Requests are timed by route pattern (never the raw URL, whose ids would make
 * a series each) and status; the published prices' fast path answers before routing and is not.
 */
export function serveMetrics(app: FastifyInstance, metrics: AppMetrics, config: Pick<Config, 'METRICS_TOKEN' | 'METRICS_PORT' | 'HOST'>): void {
  if (!config.METRICS_TOKEN && config.METRICS_PORT === undefined) return;
  const { registry } = metrics;
  collectDefaultMetrics({ register: registry });
  const durations = new Histogram({
    name: 'gabremit_http_request_duration_seconds', help: 'Time to answer a request, by method, route pattern and status',
    labelNames: ['method', 'route', 'status_code'] as const, registers: [registry],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  });
  app.addHook('onResponse', (request, reply, done) => {
    durations.observe({ method: request.method, route: request.routeOptions.url ?? 'unrouted', status_code: reply.statusCode }, seconds(reply.elapsedTime));
    done();
  });

  if (config.METRICS_TOKEN) {
    const expected = digest(`Bearer ${config.METRICS_TOKEN}`);
    app.get('/metrics', { config: { access: 'public' }, schema: { hide: true } }, async (request, reply) => {
      if (!timingSafeEqual(digest(request.headers.authorization ?? ''), expected)) throw new AppError('unauthenticated');
      return reply.type(registry.contentType).send(await registry.metrics());
    });
  }
  if (config.METRICS_PORT !== undefined) {
    const port = config.METRICS_PORT;
    const server = http.createServer((req, res) => {
      if (req.method !== 'GET' || req.url !== '/metrics') {
        res.writeHead(404).end();
        return;
      }
      registry.metrics().then((text) => res.writeHead(200, { 'content-type': registry.contentType }).end(text), (err: unknown) => {
        app.log.error({ err }, 'metrics could not be read');
        res.writeHead(500).end();
      });
    });
    // Opened with the app (a port already taken fails the start) and closed with it.
    app.addHook('onReady', () => new Promise<void>((resolve, reject) => {
      server.once('error', reject).listen(port, config.HOST, () => {
        app.log.info({ port: (server.address() as AddressInfo).port }, 'metrics served');
        resolve();
      });
    }));
    app.addHook('onClose', () => new Promise<void>((resolve) => { server.close(() => resolve()); }));
  }
}

/** Equal-length digests, so comparing them takes the same time whatever was sent. */
const digest = (value: string) => createHash('sha256').update(value).digest();
