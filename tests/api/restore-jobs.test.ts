// The restore drill: e-mails queued while the mail server is down are in the backup, and a server
// started on the restored database sends each of them exactly once.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, expect, inject, it } from 'vitest';
import { writeBackup } from '@server/db/backup.js';
import { connect } from '@server/db/client.js';
import { runMigrations } from '@server/db/migrate.js';
import { restoreBackup } from '@server/db/restore.js';
import { freePort } from '@server/lib/free-port.js';
import { withDatabase } from '../support/database-global-setup.js';
import { SmtpListener } from '../support/smtp-listener.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { registration, uniqueAddress } from './auth-fixtures.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'mt-restore-jobs-'));
const smtp = new SmtpListener();
let before: TestApp | undefined;
let after: TestApp | undefined;
let restored: string | undefined;

afterAll(async () => {
  await before?.close();
  await after?.close();
  await smtp.stop().catch(() => {});
  if (restored) {
    const admin = new pg.Client({ connectionString: inject('adminDatabaseUrl') });
    await admin.connect();
    await admin.query(`drop database if exists ${restored} with (force)`);
    await admin.end();
  }
  rmSync(dir, { recursive: true, force: true });
});

it('sends every e-mail queued at backup time exactly once from the restored database', async () => {
  // Nothing listens at this port: every delivery fails and the e-mails stay queued for a retry.
  before = await createTestApp({ env: { SMTP_URL: `smtp://127.0.0.1:${await freePort()}` } });
  const senders = [registration(), registration(), registration()];
  for (const body of senders) {
    const res = await before.request({ method: 'POST', url: '/api/auth/register', payload: body, headers: { 'x-forwarded-for': uniqueAddress() } });
    expect(res.statusCode).toBe(200);
  }
  const failed = async () => (await before!.database.pool.query<{ n: number }>(
    `select count(*)::int as n from graphile_worker.jobs where task_identifier = 'mail' and attempts >= 1 and last_error is not null`)).rows[0]!.n;
  await expect.poll(failed, { timeout: 15_000 }).toBe(senders.length);

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

  await smtp.start();
  after = await createTestApp({ databaseUrl: url, env: { SMTP_URL: smtp.url } });
  // The retries were scheduled seconds ahead by the failed attempts.
  await after.jobsDone(30_000);
  for (const { email } of senders) {
    expect(smtp.messages.filter((m) => m.to.includes(email)), email).toHaveLength(1);
    expect((await smtp.waitFor(email)).raw).toMatch(/\b\d{6}\b/);
  }
  expect(smtp.messages).toHaveLength(senders.length);
});
