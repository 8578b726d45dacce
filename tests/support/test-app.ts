import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import pino, { type Logger } from 'pino';
import { inject } from 'vitest';
import { buildApp } from '@server/app.js';
import { loadConfig, type Config } from '@server/config.js';
import { connect, type Database } from '@server/db/client.js';
import { TokenService } from '@server/modules/auth/tokens.js';
import type { Mailer } from '@server/modules/mail/mailer.js';
import { withDatabase } from './database-global-setup.js';
import { passGroupingWindows } from './mail-grouping.js';
import { SmtpListener } from './smtp-listener.js';

export interface TestApp {
  app: FastifyInstance;
  database: Database;
  config: Config;
  /** Opens a session for a profile the way sign-in does, for tests that start signed in. */
  tokens: TokenService;
  /** app.inject with an optional bearer token. */
  request(opts: InjectOptions & { token?: string }): Promise<LightMyRequestResponse>;
  /**
   * Waits until the worker has done every queued job (e-mails are sent after the request). A
   * transfer's e-mail waiting for its grouping window (MAIL_GROUP_SECONDS, 60 s as deployed) is
   * sent at once, as if the window had passed with no further step.
   */
  jobsDone(timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * The app's least-privilege role of docs/database-roles.sql, made in the test database under a
 * name of its own (roles are shared by the whole server); the URL connecting as it.
 */
async function leastPrivilegeUrl(admin: pg.Client, databaseUrl: string, id: string): Promise<string> {
  const role = `mt_app_${id}`;
  const password = randomBytes(12).toString('hex');
  const script = readFileSync('docs/database-roles.sql', 'utf8').replaceAll('mt_app', role).replace('change-me', password);
  await admin.query(script);
  const url = new URL(databaseUrl);
  url.username = role;
  url.password = password;
  return url.toString();
}

/**
 * A fresh database cloned from the migrated template, and the real app built on it; with
 * `leastPrivilege`, the app connects as the documented least-privilege role.
 */
/** A test app whose mail goes over real SMTP to a listener started for it; closing the app stops both. */
export async function createMailedTestApp(): Promise<{ t: TestApp; smtp: SmtpListener }> {
  const smtp = await new SmtpListener().start();
  const t = await createTestApp({ env: { SMTP_URL: smtp.url } });
  const close = t.close;
  t.close = async () => {
    await close();
    await smtp.stop();
  };
  return { t, smtp };
}

export async function createTestApp(opts: {
  env?: Record<string, string>; mailer?: Mailer; leastPrivilege?: boolean; logger?: Logger;
  /** A second app (another server process's twin) on this app's database; close it first. */
  sharing?: TestApp;
  /** An app on a database the test made itself (a restored one), left for the test to drop. */
  databaseUrl?: string;
} = {}): Promise<TestApp> {
  if (opts.sharing) return buildTestApp(opts, connect(opts.sharing.database.url, 5), async () => {});
  if (opts.databaseUrl) return buildTestApp(opts, connect(opts.databaseUrl, 5), async () => {});
  const adminUrl = inject('adminDatabaseUrl');
  const id = randomBytes(6).toString('hex');
  const name = `${inject('testDatabasePrefix')}${id}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name} template ${inject('templateDatabase')}`);
  await admin.end();
  let databaseUrl = withDatabase(adminUrl, name);
  if (opts.leastPrivilege) {
    const owner = new pg.Client({ connectionString: databaseUrl });
    await owner.connect();
    databaseUrl = await leastPrivilegeUrl(owner, databaseUrl, id).finally(() => owner.end());
  }
  return buildTestApp(opts, connect(databaseUrl, 5), async () => {
    const a = new pg.Client({ connectionString: adminUrl });
    await a.connect();
    await a.query(`drop database if exists ${name} with (force)`);
    if (opts.leastPrivilege) await a.query(`drop role if exists mt_app_${id}`);
    await a.end();
  });
}

async function buildTestApp(
  opts: { env?: Record<string, string>; mailer?: Mailer; logger?: Logger }, database: Database, dropDatabase: () => Promise<void>,
): Promise<TestApp> {
  const config = loadConfig({
    NODE_ENV: 'test', LOG_LEVEL: 'silent', PORT: '0', HOST: '127.0.0.1', DATA_DIR: '/nonexistent',
    PUBLIC_URL: 'http://localhost:3000', TRUST_PROXY: 'true', SUPPORT_EMAIL: 'help@example.test', MAIL_FROM: 'Test <no-reply@example.test>',
    ...opts.env,
  });
  const sessionSecret = randomBytes(32).toString('hex');
  const app = await buildApp({ config, database, logger: opts.logger ?? pino({ level: process.env.TEST_LOG ?? 'silent' }), sessionSecret, mailer: opts.mailer });
  await app.ready();
  return {
    app, database, config, tokens: new TokenService(database.db, sessionSecret),
    request: ({ token, headers, ...rest }) =>
      app.inject({ ...rest, headers: { ...headers, ...(token ? { authorization: `Bearer ${token}` } : {}) } }),
    async jobsDone(timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        await passGroupingWindows((text, params) => database.pool.query(text, params));
        // Parked jobs (every attempt spent, unlocked) wait for the admin, not for the worker; a job
        // on its last attempt counts its attempts already, so a locked one is still waited for.
        const { rows } = await database.pool.query('select count(*)::int as n from graphile_worker.jobs where attempts < max_attempts or locked_at is not null');
        if ((rows[0] as { n: number }).n === 0) return;
        if (Date.now() > deadline) throw new Error(`queued jobs still waiting after ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    },
    async close() {
      await app.close();
      await database.close();
      await dropDatabase();
    },
  };
}
