import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '@server/lib/free-port.js';
import { createUser, type TestUser } from '../support/factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { registration, uniqueAddress } from './auth-fixtures.js';

// Prometheus scrapes /metrics: here it is scraped and its text parsed, and the values follow what
// really happened (wrong passwords, requests, e-mails queued while the mail server is down).

const TOKEN = 'scrape-token-0123456789';

interface Sample { name: string; labels: Record<string, string>; value: number }

/** Prometheus's text format (version 0.0.4): `name{label="value",…} number` lines, `#` comments. */
function parse(text: string): Sample[] {
  return text.split('\n').filter((line) => line && !line.startsWith('#')).map((line) => {
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m) throw new Error(`not a sample line: ${line}`);
    const labels = Object.fromEntries([...(m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((l) => [l[1]!, l[2]!]));
    return { name: m[1]!, labels, value: Number(m[3]) };
  });
}

const value = (samples: Sample[], name: string, labels: Record<string, string> = {}) => {
  const found = samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
  if (found.length !== 1) throw new Error(`${found.length} samples of ${name} ${JSON.stringify(labels)}`);
  return found[0]!.value;
};

let t: TestApp;
let smtpDown: string;
let sender: TestUser;
beforeAll(async () => {
  // No mail server listens there; this app queues jobs but works none (one attempt each).
  smtpDown = `smtp://127.0.0.1:${await freePort()}`;
  t = await createTestApp({ env: { METRICS_TOKEN: TOKEN, RUN_WORKER: 'false', SMTP_URL: smtpDown, JOB_MAX_ATTEMPTS: '1' } });
  sender = await createUser(t);
});
afterAll(async () => { await t?.close(); });

async function scrape(app: TestApp = t): Promise<Sample[]> {
  const res = await app.request({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
  return parse(res.body);
}

describe('GET /metrics', () => {
  it('answers only the metrics token', async () => {
    for (const authorization of [undefined, 'Bearer wrong-token-0123456789', TOKEN, `Bearer ${TOKEN}x`]) {
      const res = await t.request({ method: 'GET', url: '/metrics', headers: authorization ? { authorization } : {} });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ code: 'unauthenticated' });
      expect(res.body).not.toContain('gabremit_');
    }
  });

  it('counts wrong passwords', async () => {
    const before = value(await scrape(), 'gabremit_sign_in_failures_total');
    expect(before).toBe(0);
    for (let i = 0; i < 2; i++) {
      const res = await t.request({ method: 'POST', url: '/api/auth/login', payload: { email: sender.email, password: 'not-the-password' }, headers: { 'x-forwarded-for': uniqueAddress() } });
      expect(res.statusCode).toBe(401);
    }
    expect(value(await scrape(), 'gabremit_sign_in_failures_total')).toBe(2);
  });

  it('times requests by route pattern and status, never by raw URL', async () => {
    const id = '3f1c2d4e-5a6b-4c7d-8e9f-0a1b2c3d4e5f';
    for (let i = 0; i < 3; i++) expect((await t.request({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
    expect((await t.request({ method: 'GET', url: `/api/transfer-requests/${id}`, token: sender.token })).statusCode).toBe(404);
    const samples = await scrape();
    const count = (labels: Record<string, string>) => value(samples, 'gabremit_http_request_duration_seconds_count', labels);
    expect(count({ method: 'GET', route: '/api/health', status_code: '200' })).toBe(3);
    expect(count({ method: 'GET', route: '/api/transfer-requests/:id', status_code: '404' })).toBe(1);
    expect(count({ method: 'POST', route: '/api/auth/login', status_code: '401' })).toBe(2);
    expect(value(samples, 'gabremit_http_request_duration_seconds_bucket', { method: 'GET', route: '/api/health', status_code: '200', le: '+Inf' })).toBe(3);
    expect(samples.some((s) => Object.values(s.labels).some((v) => v.includes(id)))).toBe(false);
  });

  it('reads the PostgreSQL pool as it is', async () => {
    const samples = await scrape();
    expect(value(samples, 'gabremit_db_pool_connections')).toBeGreaterThanOrEqual(1);
    expect(value(samples, 'gabremit_db_pool_connections')).toBe(t.database.pool.totalCount);
    expect(value(samples, 'gabremit_db_pool_waiting_clients')).toBe(0);
  });

  it('shows e-mails piling up while the mail server is down, then parked after their last attempt', async () => {
    for (let i = 0; i < 3; i++) {
      const res = await t.request({ method: 'POST', url: '/api/auth/register', payload: registration(), headers: { 'x-forwarded-for': uniqueAddress() } });
      expect(res.statusCode).toBe(200);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
    let samples = await scrape();
    expect(value(samples, 'gabremit_job_queue_pending')).toBe(3);
    expect(value(samples, 'gabremit_job_queue_parked')).toBe(0);
    expect(value(samples, 'gabremit_job_queue_oldest_pending_seconds')).toBeGreaterThan(0.04);

    // A worker starts (another server process on the same database); SMTP is still down.
    const worker = await createTestApp({ sharing: t, env: { SMTP_URL: smtpDown, JOB_MAX_ATTEMPTS: '1' } });
    try {
      await worker.jobsDone();
    } finally {
      await worker.close();
    }
    samples = await scrape();
    expect(value(samples, 'gabremit_job_queue_pending')).toBe(0);
    expect(value(samples, 'gabremit_job_queue_parked')).toBe(3);
    expect(value(samples, 'gabremit_job_queue_oldest_pending_seconds')).toBe(0);
  });

  it('includes the process\'s own metrics', async () => {
    const samples = await scrape();
    expect(value(samples, 'process_resident_memory_bytes')).toBeGreaterThan(0);
  });

  it('has every metric the sample Grafana dashboard reads', async () => {
    const dashboard = readFileSync('docs/grafana-dashboard.json', 'utf8');
    const read = new Set(dashboard.match(/\b(gabremit|process|nodejs)_\w+/g));
    expect(read.size).toBeGreaterThanOrEqual(8);
    const served = new Set((await scrape()).map((s) => s.name));
    expect([...read].filter((name) => !served.has(name))).toEqual([]);
  });
});

describe('metrics on their own port', () => {
  it('serves them there without a token, and not on the app\'s port', async () => {
    const port = await freePort();
    const app = await createTestApp({ env: { METRICS_PORT: String(port) } });
    try {
      const res = await fetch(`http://127.0.0.1:${port}/metrics`);
      expect(res.status).toBe(200);
      const samples = parse(await res.text());
      expect(value(samples, 'gabremit_job_queue_pending')).toBe(0);
      expect((await fetch(`http://127.0.0.1:${port}/`)).status).toBe(404);
      expect((await app.request({ method: 'GET', url: '/metrics' })).statusCode).toBe(404);
    } finally {
      await app.close();
    }
  });

  it('serves nothing when neither is configured', async () => {
    const app = await createTestApp();
    try {
      expect((await app.request({ method: 'GET', url: '/metrics' })).statusCode).toBe(404);
    } finally {
      await app.close();
    }
  });
});
