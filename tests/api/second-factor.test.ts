import { randomUUID } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueToken } from '@server/modules/auth/codes.js';
import { createUser, type TestUser } from '../support/factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { uniqueAddress } from './auth-fixtures.js';

// A staff password alone opens nothing of other people's (docs/rules/accounts.md#two-step-sign-in):
// every operation of the published contract is called as each kind of staff session that lacks the
// second factor, so a route added tomorrow that answers staff more than a sender is covered too.

let t: TestApp;
let admin: TestUser;
let sender: TestUser;
let transferId: string;
let transferReference: string;
let trackingToken: string;
let proofId: string;

const post = (url: string, payload: object, token?: string) =>
  t.request({ method: 'POST', url, payload, token, headers: { 'x-forwarded-for': uniqueAddress() } });
const get = (url: string, token: string) => t.request({ method: 'GET', url, token });
const codeNow = (secret: string) => new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' }).generate();
const signIn = async (user: TestUser) => {
  const res = await post('/api/auth/login', { email: user.email, password: user.password });
  expect(res.statusCode).toBe(200);
  return res.json() as { token?: string; mfa_required?: true };
};

async function enrol(user: TestUser, token = user.token): Promise<void> {
  const setup = await post('/api/auth/mfa/setup', { current_password: user.password }, token);
  expect(setup.statusCode).toBe(200);
  expect((await post('/api/auth/mfa/enable', { code: codeNow(setup.json().secret) }, token)).statusCode).toBe(200);
}

/** What a staff session without the second factor still reaches: its own account and the way to the factor. */
const BEFORE_SECOND_FACTOR = [
  'GET /api/profiles/me', 'PUT /api/profiles/me/language', 'POST /api/auth/mfa/setup', 'POST /api/auth/mfa/enable',
  'POST /api/auth/logout-all', 'POST /api/auth/logout',
];

beforeAll(async () => {
  t = await createTestApp();
  admin = await createUser(t, { role: 'admin' });
  sender = await createUser(t, { full_name: 'Alice Sender' });
  const created = await post('/api/payments/initiate', {
    source_provider: 'paypal_usd', destination_provider: 'airtel_gabon', amount: '100', currency: 'USD',
    destination_details: { recipient_name: 'Jean Ndong', recipient_phone: '+24177123456' },
  }, sender.token);
  expect(created.statusCode).toBe(201);
  transferId = created.json().data.id;
  transferReference = created.json().data.reference;
  trackingToken = (await t.database.pool.query<{ tracking_token: string }>('select tracking_token from transfer_requests where id = $1', [transferId])).rows[0]!.tracking_token;
  const png = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000970485973000003e8000003e801b57b526b0000000d4944415408d763f8ffffff7f0009fb03fdd1838cf00000000049454e44ae426082', 'hex');
  const boundary = '----proof';
  const uploaded = await t.request({
    method: 'POST', url: `/api/transfer-requests/${transferId}/proof`, token: sender.token,
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    payload: Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="proof.png"\r\nContent-Type: image/png\r\n\r\n`),
      png, Buffer.from(`\r\n--${boundary}--\r\n`),
    ]),
  });
  expect(uploaded.statusCode).toBe(201);
  proofId = uploaded.json().data.id;
});
afterAll(async () => { await t?.close(); });

/** The kinds of staff session that hold a password but no second factor, each with the refusal it gets. */
async function sessionsWithoutSecondFactor(): Promise<{ kind: string; role: 'admin' | 'manager'; token: string; code: string }[]> {
  const neverEnrolledManager = await createUser(t, { role: 'manager', mfa: false });
  const neverEnrolledAdmin = await createUser(t, { role: 'admin', mfa: false });

  const enrolledSince = await createUser(t, { role: 'manager', mfa: false });
  const before = (await signIn(enrolledSince)).token!;
  await enrol(enrolledSince);

  const resetLinkManager = await createUser(t, { role: 'manager', mfa: false });
  const link = await issueToken(t.database.db, { purpose: 'reset_password', email: resetLinkManager.email, profileId: resetLinkManager.id, ttlMs: 3600_000 });
  const reset = await post('/api/auth/reset-password/confirm', { token: link, password: 'Brand-new-pass-77' });
  expect(reset.statusCode).toBe(200);

  const resetByAdmin = await createUser(t, { role: 'manager', mfa: false });
  await enrol(resetByAdmin);
  expect((await post(`/api/admin/users/${resetByAdmin.id}/mfa/reset`, {}, admin.token)).statusCode).toBe(200);
  const afterReset = (await signIn(resetByAdmin)).token!;

  return [
    { kind: 'a manager who never enrolled', role: 'manager', token: neverEnrolledManager.token, code: 'mfa_enrollment_required' },
    { kind: 'an admin who never enrolled', role: 'admin', token: neverEnrolledAdmin.token, code: 'mfa_enrollment_required' },
    { kind: 'a session opened before the account enrolled', role: 'manager', token: before, code: 'mfa_required' },
    { kind: 'a session from a password-reset link', role: 'manager', token: reset.json().token as string, code: 'mfa_enrollment_required' },
    { kind: 'a session after an admin reset the account\'s two-step sign-in', role: 'manager', token: afterReset, code: 'mfa_enrollment_required' },
  ];
}

type Operation = { method: string; path: string; url: string; access: string };

async function everyOperation(): Promise<Operation[]> {
  const doc = (await t.request({ method: 'GET', url: '/api/openapi.json' })).json() as {
    paths: Record<string, Record<string, { 'x-access'?: string }>>;
  };
  const ops: Operation[] = [];
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      // Another sender's transfer, proof and tracking link where the path names them: the very thing to keep from staff without the factor.
      const url = path.replace('{id}', transferId).replace('{proofId}', proofId).replace('{token}', trackingToken).replace(/\{[^}]+\}/g, randomUUID());
      ops.push({ method: method.toUpperCase(), path, url, access: op['x-access'] ?? 'undeclared' });
    }
  }
  return ops;
}

const call = (op: Operation, token?: string, address = '127.0.0.1') =>
  t.request({ method: op.method as 'GET', url: op.url, token, remoteAddress: address, ...(op.method === 'GET' || op.method === 'DELETE' ? {} : { payload: {} }) });

/** The field names of a JSON answer, at every depth (values aside: ids and times differ from call to call). */
function fieldsOf(body: string): string[] {
  const names = new Set<string>();
  const walk = (value: unknown, at: string) => {
    if (Array.isArray(value)) value.forEach((item) => walk(item, `${at}[]`));
    else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) { names.add(`${at}.${k}`); walk(v, `${at}.${k}`); }
  };
  try { walk(JSON.parse(body), ''); } catch { return []; }
  return [...names].sort();
}

describe('a staff session without its second factor', () => {
  it('is refused by every operation but its own account\'s, whatever the operation\'s declared access', async () => {
    const ops = await everyOperation();
    const guarded = ops.filter((op) => op.access !== 'public');
    expect(guarded.map((op) => `${op.method} ${op.path}`)).toEqual(expect.arrayContaining([
      'GET /api/transfer-requests', 'GET /api/transfer-requests/{id}', 'GET /api/transfer-requests/{id}/proof',
      'GET /api/transfer-requests/{id}/proofs/{proofId}', 'GET /api/kyc/documents/{id}', 'GET /api/kyc/reviews', 'GET /api/kyc/reviews/{id}',
      'POST /api/kyc/reviews/{id}/decision', 'POST /api/kyc/documents/{id}/mrz', 'GET /api/admin/stats', ...BEFORE_SECOND_FACTOR,
    ]));
    expect(guarded.length).toBeGreaterThan(50);
    const key = (op: Operation) => `${op.method} ${op.path}`;
    const refused = guarded.filter((op) => !BEFORE_SECOND_FACTOR.includes(key(op)));
    // Signing out last: it ends the session the other calls use.
    const open = BEFORE_SECOND_FACTOR.map((name) => guarded.find((op) => key(op) === name)!);
    for (const session of await sessionsWithoutSecondFactor()) {
      for (const op of refused) {
        const name = `${key(op)} as ${session.kind}`;
        const res = await call(op, session.token);
        expect(res.statusCode, name).toBe(403);
        // An admin's operation refuses a manager for the role before anything else.
        const code = op.access === 'admin' && session.role !== 'admin' ? 'forbidden' : session.code;
        expect(res.json(), name).toEqual({ error: expect.any(String), code });
      }
      for (const op of open) {
        const name = `${key(op)} as ${session.kind}`;
        const res = await call(op, session.token);
        expect(res.statusCode, name).toBeLessThan(500);
        expect(res.statusCode === 403 ? String(res.json().code) : '', name).not.toMatch(/^mfa_/);
      }
    }
  });

  it('is answered by every public operation exactly as anyone is: the same status and fields, and none of another sender\'s data', async () => {
    const ops = (await everyOperation()).filter((op) => op.access === 'public');
    expect(ops.map((op) => `${op.method} ${op.path}`)).toEqual(expect.arrayContaining([
      'GET /api/track/{token}', 'GET /api/fees', 'GET /api/rates', 'POST /api/quotes', 'GET /api/dev/outbox', 'GET /api/health/ready',
    ]));
    // What the sender's transfer holds that only its sender and staff with the factor may read (the
    // tracking link shows the recipient's first name and the number's last 3 digits, no more).
    const staffOnly = [sender.email, 'Alice Sender', transferId, transferReference, proofId, '77123456', 'Ndong'];
    const elsewhere = '203.0.113.90';
    // The link is live: the sweep reads the sender's transfer through it.
    expect((await call(ops.find((op) => op.path === '/api/track/{token}')!, undefined, elsewhere)).statusCode).toBe(200);
    for (const session of await sessionsWithoutSecondFactor()) {
      for (const op of ops) {
        const name = `${op.method} ${op.path} as ${session.kind}`;
        // From another machine, as staff work: the development outbox answers only a browser on the server's own.
        const [anyone, staff] = [await call(op, undefined, elsewhere), await call(op, session.token, elsewhere)];
        expect(staff.statusCode, name).toBe(anyone.statusCode);
        expect(fieldsOf(staff.body), name).toEqual(fieldsOf(anyone.body));
        for (const text of staffOnly) expect(staff.body, name).not.toContain(text);
      }
    }
  });

  it('still reaches its own profile, which says the session lacks the factor, and the way to set it up', async () => {
    const manager = await createUser(t, { role: 'manager', mfa: false });
    const me = await get('/api/profiles/me', manager.token);
    expect(me.statusCode).toBe(200);
    expect(me.json().data).toMatchObject({ role: 'manager', totp_enabled: false, mfa_verified: false });
    await enrol(manager);
    // Enrolling in this session gives it the factor: the queue opens.
    expect((await get('/api/profiles/me', manager.token)).json().data).toMatchObject({ totp_enabled: true, mfa_verified: true });
    const queue = await get('/api/transfer-requests', manager.token);
    expect(queue.statusCode).toBe(200);
    expect(queue.json().data.map((r: { id: string }) => r.id)).toContain(transferId);
  });

  it('the same calls with the second factor get the staff view: the whole queue, another sender\'s transfer and proof', async () => {
    const manager = await createUser(t, { role: 'manager' });
    const queue = await get('/api/transfer-requests', manager.token);
    expect(queue.json().data.map((r: { id: string }) => r.id)).toContain(transferId);
    const detail = await get(`/api/transfer-requests/${transferId}`, manager.token);
    expect(detail.statusCode).toBe(200);
    expect(detail.json().data).toHaveProperty('notes');
    expect((await get(`/api/transfer-requests/${transferId}/proof`, manager.token)).statusCode).toBe(200);
    expect((await get(`/api/transfer-requests/${transferId}/proofs/${proofId}`, manager.token)).statusCode).toBe(200);
  });

  it('a sender is not affected: the sender\'s own list, transfer and proof answer as before', async () => {
    expect((await get('/api/transfer-requests', sender.token)).json().data.map((r: { id: string }) => r.id)).toEqual([transferId]);
    expect((await get(`/api/transfer-requests/${transferId}`, sender.token)).statusCode).toBe(200);
    expect((await get(`/api/transfer-requests/${transferId}/proof`, sender.token)).statusCode).toBe(200);
  });
});

describe('a role change', () => {
  it('ends every session of the account: a sender promoted to manager signs in again, with the second factor, to see the queue', async () => {
    const promoted = await createUser(t, { full_name: 'Soon Staff' });
    const other = (await signIn(promoted)).token!;
    expect((await get('/api/transfer-requests', promoted.token)).statusCode).toBe(200);
    const res = await t.request({ method: 'PATCH', url: `/api/profiles/${promoted.id}`, token: admin.token, payload: { role: 'manager' } });
    expect(res.statusCode).toBe(200);
    for (const token of [promoted.token, other]) {
      const after = await get('/api/transfer-requests', token);
      expect(after.statusCode).toBe(401);
      expect(after.json().data).toBeUndefined();
    }
    // Signing in again with the password alone gives a session that must first enrol.
    const fresh = (await signIn(promoted)).token!;
    expect((await get('/api/transfer-requests', fresh)).json().code).toBe('mfa_enrollment_required');
  });

  it('ends the sessions of a demoted manager too; an unchanged role ends nothing', async () => {
    const manager = await createUser(t, { role: 'manager' });
    const same = await t.request({ method: 'PATCH', url: `/api/profiles/${manager.id}`, token: admin.token, payload: { role: 'manager' } });
    expect(same.statusCode).toBe(200);
    expect((await get('/api/transfer-requests', manager.token)).statusCode).toBe(200);
    await t.request({ method: 'PATCH', url: `/api/profiles/${manager.id}`, token: admin.token, payload: { role: 'user' } });
    expect((await get('/api/profiles/me', manager.token)).statusCode).toBe(401);
  });
});
