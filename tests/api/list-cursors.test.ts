import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, type TestUser } from '../support/factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { createTransfer } from './admin-fixtures.js';

// Cursors come back from the client: a crafted one is a clear 400 on every list, never a 500
// (which also logged the failing SQL with its parameters).

let t: TestApp;
let sender: TestUser;
let manager: TestUser;
let admin: TestUser;
beforeAll(async () => {
  t = await createTestApp();
  [sender, manager, admin] = await Promise.all([createUser(t), createUser(t, { role: 'manager' }), createUser(t, { role: 'admin' })]);
  await createTransfer(t, sender.id);
});
afterAll(async () => { await t.close(); });

const ID = '0b5c6a3e-8f1d-4c2a-9e7b-1d2c3b4a5f60';
const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64url');
const PROBES = [
  b64(`1|${ID}`), b64(JSON.stringify(['1', ID])), b64(`2026-13-45 99:00:00+00|${ID}`), b64(`275760-09-13|${ID}`),
  b64(`2026-11-22 10:00:00+00|${'-'.repeat(36)}`), b64(JSON.stringify(['2026-11-22T10:00:00Z', 'x'])), b64('|'), 'garbage!', '%00',
];

const LISTS = [
  { url: '/api/transfer-requests', who: 'sender', token: () => sender.token },
  { url: '/api/transactions', who: 'sender', token: () => sender.token },
  { url: '/api/transfer-requests', who: 'staff', token: () => manager.token },
  { url: '/api/profiles', who: 'admin', token: () => admin.token },
];

describe('crafted cursors', () => {
  for (const { url, who, token } of LISTS) {
    it(`GET ${url} (${who}): 400 "The page cursor is invalid." for each probe`, async () => {
      for (const cursor of PROBES) {
        const res = await t.request({ method: 'GET', url: `${url}?cursor=${encodeURIComponent(cursor)}`, token: token() });
        expect(res.statusCode, cursor).toBe(400);
        expect(res.json().error).toBe('The page cursor is invalid.');
      }
      const first = await t.request({ method: 'GET', url: `${url}?limit=1`, token: token() });
      expect(first.statusCode).toBe(200);
    });
  }
});
