import { randomBytes } from 'node:crypto';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import pino from 'pino';
import { inject } from 'vitest';
import { buildApp } from '../../src/server/app.js';
import { loadConfig, type Config } from '../../src/server/config.js';
import { connect, type Database } from '../../src/server/db/client.js';
import { TokenService } from '../../src/server/modules/auth/tokens.js';
import type { Mailer } from '../../src/server/modules/mail/mailer.js';
import { withDatabase } from './database-global-setup.js';

export interface TestApp {
  app: FastifyInstance;
  database: Database;
  config: Config;
  /** Opens a session for a profile the way sign-in does, for tests that start signed in. */
  tokens: TokenService;
  /** app.inject with an optional bearer token. */
  request(opts: InjectOptions & { token?: string }): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

/** A fresh database cloned from the migrated template, and the real app built on it. */
export async function createTestApp(opts: { env?: Record<string, string>; mailer?: Mailer } = {}): Promise<TestApp> {
  const adminUrl = inject('adminDatabaseUrl');
  const name = `mt_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name} template ${inject('templateDatabase')}`);
  await admin.end();
  const database = connect(withDatabase(adminUrl, name), 5);
  const config = loadConfig({
    NODE_ENV: 'test', LOG_LEVEL: 'silent', PORT: '0', HOST: '127.0.0.1', DATA_DIR: '/nonexistent',
    PUBLIC_URL: 'http://localhost:3000', TRUST_PROXY: 'true', SUPPORT_EMAIL: 'help@example.test', MAIL_FROM: 'Test <no-reply@example.test>',
    ...opts.env,
  });
  const sessionSecret = randomBytes(32).toString('hex');
  const app = await buildApp({ config, database, logger: pino({ level: 'silent' }), sessionSecret, mailer: opts.mailer });
  await app.ready();
  return {
    app, database, config, tokens: new TokenService(database.db, sessionSecret),
    request: ({ token, headers, ...rest }) =>
      app.inject({ ...rest, headers: { ...headers, ...(token ? { authorization: `Bearer ${token}` } : {}) } }),
    async close() {
      await app.close();
      await database.close();
      const a = new pg.Client({ connectionString: adminUrl });
      await a.connect();
      await a.query(`drop database if exists ${name} with (force)`);
      await a.end();
    },
  };
}
