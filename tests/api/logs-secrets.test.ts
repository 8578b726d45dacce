import { Writable } from 'node:stream';
import { desc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailOutbox } from '@server/db/schema.js';
import { createLogger } from '@server/logger.js';
import { workerLogger } from '@server/worker.js';
import { OidcProvider } from '../support/oidc-provider.js';
import type { TestApp } from '../support/test-app.js';
import { registration, uniqueAddress, uniqueEmail } from './auth-fixtures.js';
import { Browser, facebookAt, listeningApp, location, mailedConfirmLink, signInThrough } from './oauth-fixtures.js';

// The server's own logger (as `npm start` builds it, at info) writing to memory while requests
// carrying codes, reset links, OAuth codes, states and tickets go through: none may be logged.

const lines: string[] = [];
const sink = new Writable({ write(chunk: Buffer, _enc, done) { lines.push(chunk.toString()); done(); } });
const logged = () => lines.join('');

let oidc: OidcProvider;
let t: TestApp;
let base: string;
beforeAll(async () => {
  oidc = await new OidcProvider().start();
  ({ t, base } = await listeningApp({
    NODE_ENV: 'development',
    ...facebookAt(oidc),
  }, createLogger({ LOG_LEVEL: 'info' }, sink)));
});
afterAll(async () => {
  await t?.close();
  await oidc?.stop();
});

const newestMailTo = async (to: string) =>
  (await t.jobsDone(), await t.database.db.select().from(mailOutbox).where(eq(mailOutbox.to, to)).orderBy(desc(mailOutbox.id)).limit(1))[0]!;

describe('logs never hold a secret', () => {
  it('names an outbox e-mail (recipient, subject, where to read it) without its code', async () => {
    const body = registration();
    const res = await t.request({ method: 'POST', url: '/api/auth/register', payload: body, headers: { 'x-forwarded-for': uniqueAddress() } });
    expect(res.statusCode).toBe(200);
    const mail = await newestMailTo(body.email);
    const code = /\b(\d{6})\b/.exec(mail.text)![1]!;
    expect(logged()).not.toContain(code);
    expect(logged()).not.toContain(mail.text.slice(0, 40));
    const line = lines.map((l) => JSON.parse(l) as Record<string, unknown>).find((l) => l.to === body.email)!;
    expect(line.subject).toMatch(/^\[code\] is your .+ verification code$/);
    expect(line.msg).toBe(`e-mail kept in the development outbox, read it at ${base}/dev/outbox`);
  });

  it('redacts the reset link\'s token from the request log, and never logs the link', async () => {
    const email = uniqueEmail('reset');
    const registered = await t.request({ method: 'POST', url: '/api/auth/register', payload: registration({ email }), headers: { 'x-forwarded-for': uniqueAddress() } });
    expect(registered.statusCode).toBe(200);
    await t.request({ method: 'POST', url: '/api/auth/reset-password', payload: { email }, headers: { 'x-forwarded-for': uniqueAddress() } });
    await expect.poll(async () => (await newestMailTo(email)).text).toContain('/reset-password?token=');
    const token = /reset-password\?token=([\w%-]+)/.exec((await newestMailTo(email)).text)![1]!;
    await fetch(`${base}/reset-password?token=${token}&lng=fr`);
    expect(logged()).not.toContain(token);
    expect(logged()).toContain('/reset-password?token=[redacted]&lng=fr');
  });

  it('redacts OAuth codes, states and the sign-in ticket, on the way in and out', async () => {
    const email = uniqueEmail('logs');
    oidc.signInAs({ sub: 'fb-logs', email, name: 'Logs' });
    const browser = new Browser();
    const { authorize, callback } = await signInThrough(base, 'facebook', browser);
    // Facebook's address is confirmed by a mailed link, itself a secret.
    const confirm = new URL(await mailedConfirmLink(t, email));
    const landing = new URL(location(await browser.open(confirm.toString())), base);
    const secrets = [
      authorize.searchParams.get('state')!, authorize.searchParams.get('code_challenge')!, callback.searchParams.get('code')!,
      confirm.searchParams.get('token')!,
    ];
    // The app's address bar after sign-in carries the ticket, as a browser would request it.
    const ticket = landing.searchParams.get('token');
    await fetch(new URL(landing.pathname + landing.search, base));
    await fetch(`${base}/api/auth/google/callback?code=made-up-code-1234&state=made-up-state-5678&otp=123987&Ticket=made-up-ticket`);
    for (const secret of [...secrets, ticket, 'made-up-code-1234', 'made-up-state-5678', '123987', 'made-up-ticket']) {
      expect(secret).toBeTruthy();
      expect(logged()).not.toContain(secret);
    }
    expect(logged()).toContain('/api/auth/facebook/callback?code=[redacted]&state=[redacted]');
    expect(logged()).toContain('/api/auth/facebook/confirm?token=[redacted]');
  });

  it('writes one line per request, when it completes: method, URL, status and time, no headers', async () => {
    const before = lines.length;
    const res = await fetch(`${base}/api/fees?lng=fr`, { headers: { authorization: 'Bearer not-a-real-token', cookie: 'i18next=fr' } });
    expect(res.status).toBe(200);
    await expect.poll(() => lines.length).toBeGreaterThan(before);
    const since = lines.slice(before).map((l) => JSON.parse(l) as Record<string, unknown>);
    const line = since.find((l) => (l.req as { url?: string } | undefined)?.url === '/api/fees?lng=fr');
    expect(line?.reqId).toBeDefined();
    const mine = since.filter((l) => l.reqId === line!.reqId);
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ msg: 'request completed', req: { method: 'GET' }, res: { statusCode: 200 } });
    expect(mine[0]!.responseTime).toEqual(expect.any(Number));
    expect(JSON.stringify(mine[0])).not.toContain('not-a-real-token');
    expect(JSON.stringify(mine[0])).not.toContain('i18next');
  });

  it('a failed job\'s log line keeps the query and PostgreSQL\'s reason, never the values it was given', async () => {
    const secret = 'leaky-value@example.test';
    const failure = await t.database.db.execute(sql`select ${secret}::int`).then(() => null, (err: unknown) => err as Error);
    expect(failure).toBeInstanceOf(Error);
    // graphile-worker's own words for a failed task, with the error's text and stack in them.
    const before = lines.length;
    workerLogger(createLogger({ LOG_LEVEL: 'info' }, sink)).scope({ jobId: '42', taskIdentifier: 'mail', workerId: 'w1' }).error(
      `Failed task 42 (mail, 3.00ms, attempt 1 of 10) with error '${failure!.message}':\n  ${String(failure!.stack)}`,
      { failure: true, error: failure },
    );
    const line = lines.slice(before).join('');
    expect(line).toContain('Failed task 42 (mail');
    expect(line).toContain('invalid input syntax for type integer');
    expect(line).not.toContain(secret);
  });
});
