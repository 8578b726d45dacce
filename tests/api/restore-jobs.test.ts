// The restore drill: e-mails queued while the mail server is down, and a PayPal void queued
// while PayPal is down, are in the backup, and a server started on the restored database does
// each of them exactly once.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, expect, inject, it } from 'vitest';
import { writeBackup } from '@server/db/backup.js';
import { connect } from '@server/db/client.js';
import { runMigrations } from '@server/db/migrate.js';
import { restoreBackup } from '@server/db/restore.js';
import { transferRequests, transferStatusHistory } from '@server/db/schema.js';
import { freePort } from '@server/lib/free-port.js';
import { withDatabase } from '../support/database-global-setup.js';
import { createUser } from '../support/factories.js';
import { PayPalServer } from '../support/paypal-server.js';
import { SmtpListener } from '../support/smtp-listener.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { registration, uniqueAddress } from './auth-fixtures.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'mt-restore-jobs-'));
const smtp = new SmtpListener();
const paypal = new PayPalServer();
let before: TestApp | undefined;
let after: TestApp | undefined;
let restored: string | undefined;

afterAll(async () => {
  await before?.close();
  await after?.close();
  await smtp.stop().catch(() => {});
  await paypal.stop().catch(() => {});
  if (restored) {
    const admin = new pg.Client({ connectionString: inject('adminDatabaseUrl') });
    await admin.connect();
    await admin.query(`drop database if exists ${restored} with (force)`);
    await admin.end();
  }
  rmSync(dir, { recursive: true, force: true });
});

const queued = async (url: string) => {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<{ task_identifier: string; attempts: number }>('select task_identifier, attempts from graphile_worker.jobs order by id')).rows;
  } finally {
    await client.end();
  }
};

it('does every job queued at backup time exactly once from the restored database', async () => {
  await paypal.start();
  const payPalEnv = { PAYPAL_CLIENT_ID: paypal.clientId, PAYPAL_CLIENT_SECRET: paypal.clientSecret, PAYPAL_API_BASE: paypal.url };
  // Nothing listens at this port: every delivery fails and the e-mails stay queued for a retry.
  // Grouping off: every job must have been tried before the backup, and a grouped e-mail waits 60 s untried.
  before = await createTestApp({ env: { ...payPalEnv, SMTP_URL: `smtp://127.0.0.1:${await freePort()}`, MAIL_GROUP_SECONDS: '0' } });
  const senders = [registration(), registration(), registration()];
  for (const body of senders) {
    const res = await before.request({ method: 'POST', url: '/api/auth/register', payload: body, headers: { 'x-forwarded-for': uniqueAddress() } });
    expect(res.statusCode).toBe(200);
  }
  // A PayPal payment authorized, then the transfer cancelled while PayPal is down: its void waits.
  const payer = await createUser(before);
  const initiated = await before.request({
    method: 'POST', url: '/api/payments/initiate', token: payer.token, payload: {
      source_provider: 'paypal_usd', destination_provider: 'airtel_gabon', amount: '100', currency: 'USD',
      destination_details: { recipient_name: 'Jean Ndong', recipient_phone: '+24177123456' },
    },
  });
  expect(initiated.statusCode).toBe(201);
  const { payment_url: paymentUrl, data: { id } } = initiated.json() as { payment_url: string; data: { id: string } };
  const back = new URL((await fetch(paymentUrl, { redirect: 'manual' })).headers.get('location')!);
  await before.request({ method: 'GET', url: `${back.pathname}${back.search}` });
  const [authorized] = await before.database.db.select().from(transferRequests).where(eq(transferRequests.id, id));
  expect(authorized!.payment_status).toBe('authorized');
  // Down for the old server's two tries at most (the second comes about 3 s after the first).
  paypal.failNext('void', { kind: 'down' }, 2);
  expect((await before.request({ method: 'POST', url: `/api/transfer-requests/${id}/cancel`, token: payer.token })).statusCode).toBe(200);

  // Every job tried once and failed: the e-mails (three codes, the cancellation's) and the void.
  const failed = async () => (await before!.database.pool.query<{ n: number }>(
    'select count(*)::int as n from graphile_worker.jobs where attempts >= 1 and last_error is not null')).rows[0]!.n;
  await expect.poll(failed, { timeout: 15_000 }).toBe((await queued(before.database.url)).length);
  const file = path.join(dir, 'app.jsonl.gz');
  await writeBackup(before.database.url, file);
  await before.close();
  before = undefined;

  restored = `${inject('testDatabasePrefix')}drill_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: inject('adminDatabaseUrl') });
  await admin.connect();
  await admin.query(`create database ${restored}`);
  await admin.end();
  const url = withDatabase(inject('adminDatabaseUrl'), restored);
  await restoreBackup(url, file);
  // As `npm start` does before serving: the restored schema is already current.
  const owner = connect(url, 2);
  await runMigrations(owner).finally(() => owner.close());
  const jobs = await queued(url);
  const mails = jobs.filter((j) => j.task_identifier === 'mail' || j.task_identifier === 'transfer_mail').length;
  expect(mails).toBeGreaterThanOrEqual(senders.length + 1);
  expect(jobs.filter((j) => j.task_identifier === 'paypal_void')).toHaveLength(1);

  await smtp.start();
  after = await createTestApp({ databaseUrl: url, env: { ...payPalEnv, SMTP_URL: smtp.url } });
  // The retries were scheduled seconds ahead by the failed attempts.
  await after.jobsDone(40_000);
  expect(await queued(url)).toEqual([]);
  // Each e-mail once: as many messages as queued e-mails, each Message-ID once.
  expect(smtp.messages).toHaveLength(mails);
  expect(new Set(smtp.messages.map((m) => /^Message-ID: *(.+)$/im.exec(m.raw)?.[1])).size).toBe(mails);
  for (const { email } of senders) {
    expect(smtp.messages.filter((m) => m.to.includes(email)), email).toHaveLength(1);
  }
  // The void done once: PayPal released the money, the payment is voided, the timeline says it once.
  expect(paypal.authorizations.get(authorized!.provider_authorization_id!)!.status).toBe('VOIDED');
  const [voided] = await after.database.db.select().from(transferRequests).where(eq(transferRequests.id, id));
  expect(voided!.payment_status).toBe('voided');
  const steps = await after.database.db.select().from(transferStatusHistory).where(eq(transferStatusHistory.transfer_request_id, id));
  expect(steps.filter((s) => s.event === 'payment_voided')).toHaveLength(1);
});
