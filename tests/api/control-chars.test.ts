// Control characters (NUL above all, which PostgreSQL refuses in text) are refused with a 400
// by the shared schemas wherever text comes in: JSON bodies, query strings, CSV imports; a cut
// upload is a 400 too; and a query that fails never logs the values it was given.
import { Writable } from 'node:stream';
import { eq, like, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { profiles } from '@server/db/schema.js';
import { createLogger } from '@server/logger.js';
import { createUser, type TestUser } from '../support/factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { createTransfer } from './admin-fixtures.js';
import { registration, uniqueAddress, uniqueEmail } from './auth-fixtures.js';

let t: TestApp;
let sender: TestUser;
let admin: TestUser;
beforeAll(async () => {
  t = await createTestApp();
  [sender, admin] = await Promise.all([createUser(t, { full_name: 'Awa Before' }), createUser(t, { role: 'admin' })]);
});
afterAll(async () => { await t?.close(); });

const MESSAGE = 'This value holds invisible control characters (such as NUL); remove them and try again.';

const register = (body: Record<string, unknown>) =>
  t.request({ method: 'POST', url: '/api/auth/register', payload: body, headers: { 'x-forwarded-for': uniqueAddress() } });

describe('text with control characters', () => {
  it('is refused in each field of a registration, and no account is made', async () => {
    const nul = uniqueEmail('nul');
    const cases: Array<[string, Record<string, unknown>]> = [
      ['email', { email: nul.replace('@', '\u0000@') }],
      ['password', { email: nul, password: 'Secret-\u0000pass-1' }],
      ['phone', { email: nul, phone: '+241 06\u0000 12 34 56' }],
      // DEL and a C1 control (NEL) are control characters too.
      ['full_name', { email: nul, full_name: 'Awa\u007fNdong' }],
      ['city', { email: nul, city: 'Libre\u0085ville' }],
    ];
    for (const [field, overrides] of cases) {
      const res = await register(registration(overrides));
      expect(res.statusCode, field).toBe(400);
      expect(res.json(), field).toEqual({ error: MESSAGE, code: 'validation_failed', fields: { [field]: MESSAGE } });
    }
    expect(await t.database.db.select().from(profiles).where(like(profiles.email, 'nul-%'))).toEqual([]);
  });

  it('is refused in a profile change, which leaves the profile as it was', async () => {
    const res = await t.request({ method: 'PATCH', url: '/api/profiles/me', token: sender.token, payload: { full_name: 'Awa\u0000After' } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'validation_failed', fields: { full_name: MESSAGE } });
    const [row] = await t.database.db.select().from(profiles).where(eq(profiles.id, sender.id));
    expect(row!.full_name).toBe('Awa Before');
  });

  it('is refused in a query string', async () => {
    for (const q of ['%00', 'awa%01', '%7F']) {
      const res = await t.request({ method: 'GET', url: `/api/profiles?q=${q}`, token: admin.token });
      expect(res.statusCode, q).toBe(400);
      expect(res.json(), q).toMatchObject({ code: 'validation_failed', fields: { q: MESSAGE } });
    }
  });

  it('is refused in a statement import, naming the line, and nothing is imported', async () => {
    const statements = async () => (await t.database.db.execute(sql`select count(*)::int as n from reconciliation_statements`)).rows[0];
    const before = await statements();
    const csv = 'date,reference,description,amount\n2026-11-20,REF-1,fine,100\n2026-11-21,REF-2,bad\u0000byte,200\n';
    const res = await t.request({ method: 'POST', url: '/api/reconciliation/airtel_gabon/imports', token: admin.token, payload: csv, headers: { 'content-type': 'text/csv' } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'csv_invalid', fields: { 'lines.3.description': 'Line 3: the description holds invisible control characters (such as NUL).' } });
    expect(await statements()).toEqual(before);

    const boundary = '----nul-name';
    const multipart = [
      `--${boundary}`, 'Content-Disposition: form-data; name="file"; filename="may\u0000.csv"', 'Content-Type: text/csv', '',
      'date,reference,description,amount', '2026-05-05,MISC,Interest,25', `--${boundary}--`, '',
    ].join('\r\n');
    const named = await t.request({
      method: 'POST', url: '/api/reconciliation/airtel_gabon/imports', token: admin.token, payload: multipart,
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    });
    expect(named.statusCode).toBe(400);
    expect(named.json()).toEqual({ error: MESSAGE, code: 'validation_failed', fields: { filename: MESSAGE } });
    expect(await statements()).toEqual(before);
  });

  it('keeps tabs and line breaks, which a message may hold', async () => {
    const transfer = await createTransfer(t, sender.id);
    const res = await t.request({ method: 'POST', url: `/api/transfer-requests/${transfer.id}/messages`, token: sender.token, payload: { body: 'Paid twice?\r\n\tRef 42\nThanks' } });
    expect(res.statusCode).toBe(201);
  });
});

describe('a proof upload cut before its closing boundary', () => {
  it('answers 400, not 500', async () => {
    const transfer = await createTransfer(t, sender.id);
    const boundary = '----cut-boundary';
    const payload = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="proof.png"\r\nContent-Type: image/png\r\n\r\n`),
      Buffer.from('89504e470d0a1a0a0000000d4948445200', 'hex'),
    ]);
    const res = await t.request({
      method: 'POST', url: `/api/transfer-requests/${transfer.id}/proof`, token: sender.token, payload,
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: 'The upload ended before the whole file arrived. Please send it again.', code: 'upload_incomplete' });
  });
});

describe('a failed query in the server\'s log', () => {
  it('names the statement and PostgreSQL\'s reason, never the values it was given', async () => {
    const lines: string[] = [];
    const log = createLogger({ LOG_LEVEL: 'info' }, new Writable({ write(chunk: Buffer, _enc, done) { lines.push(chunk.toString()); done(); } }));
    const email = uniqueEmail('logged');
    const hash = '$argon2id$v=19$m=19456,t=2,p=1$c2VjcmV0c2FsdA$aGFzaGhhc2hoYXNo';
    const error = await t.database.db.execute(sql`insert into profiles (email, password_hash, phone) values (${email}, ${hash}, ${'+241061234567'}::int)`)
      .then(() => null, (err: unknown) => err);
    expect(error).toBeInstanceOf(Error);
    // As the error handler logs an unhandled error.
    log.error({ err: error }, 'unhandled error');
    const logged = lines.join('');
    expect(logged).toContain('insert into profiles');
    // PostgreSQL's reason, without the value it quotes.
    expect(logged).toContain('value \\"…\\" is out of range for type integer');
    for (const value of [email, hash, '+241061234567']) expect(logged).not.toContain(value);
  });
});
